import { PROFILE_PRESETS } from "../../../cloud/index.js";
import type { PresetProfileRecord, ServedInverter } from "../../world/world.js";
import { type Answer, forbidden, invalid, notFound, ok, topLevel } from "../envelope.js";
import { bodyObject, type RequestContext, type Route } from "../route.js";
import { withInverter } from "./inverter-lookup.js";
import { queryObject, validate } from "./validation.js";

const PRESET_RULE = `in:${PROFILE_PRESETS.join(",")}`;
const MANAGE = ["api:inverter:control:profile:manage"] as const;

function profileBody(profile: PresetProfileRecord) {
  return {
    id: profile.id,
    inverter_id: profile.inverterSerial,
    preset_id: profile.preset,
    name: profile.name,
    scope: profile.scope,
    data: profile.data,
  };
}

function profilesOf(c: RequestContext, serial: string): PresetProfileRecord[] {
  return c.world.presetProfiles.filter((p) => p.inverterSerial === serial);
}

/** The profile named by the body's name and preset on the path's inverter, or 404. */
function withNamedProfile(
  c: RequestContext,
  handle: (record: ServedInverter, profile: PresetProfileRecord) => Answer,
): Answer {
  return withInverter(c, (record) => {
    const { name, preset } = bodyObject(c.body) as { name: string; preset: string };
    const profile = profilesOf(c, record.serial).find((p) => p.name === name && p.preset === preset);
    return profile ? handle(record, profile) : notFound(`No ${preset} profile named "${name}".`);
  });
}

const nameAndPreset = { name: ["required", "string", "max:32"], preset: ["required", "string", PRESET_RULE] };

export const presetProfileRoutes: readonly Route[] = [
  {
    method: "GET",
    path: "/inverter/{inverter_serial_number}/preset-profile",
    scopes: ["api:inverter:control:profile:list"],
    handle: (c) => {
      const query = queryObject(c.query);
      return (
        validate(query, {
          name: ["optional", "string", "max:32"],
          presets: ["optional", "array"],
          "presets.*": [PRESET_RULE],
        }) ??
        withInverter(c, (record) => {
          const presets = Array.isArray(query.presets) ? new Set(query.presets.map(String)) : undefined;
          const found = profilesOf(c, record.serial).filter(
            (p) => (query.name === undefined || p.name === query.name) && (!presets || presets.has(p.preset)),
          );
          return ok(found.map(profileBody));
        })
      );
    },
  },
  {
    method: "POST",
    path: "/inverter/{inverter_serial_number}/preset-profile",
    scopes: [...MANAGE],
    handle: (c) =>
      validate(c.body, nameAndPreset) ??
      withInverter(c, (record) => {
        const { name, preset } = bodyObject(c.body) as { name: string; preset: string };
        if (profilesOf(c, record.serial).some((p) => p.name === name && p.preset === preset)) {
          return invalid({ name: [`A ${preset} profile named "${name}" already exists for this inverter.`] });
        }
        const data = record.control.capturePreset(preset) ?? {};
        const profile = c.world.addPresetProfile({
          inverterSerial: record.serial,
          preset,
          name,
          owner: c.actor.name,
          scope: c.actor.type,
          data,
        });
        return topLevel(profileBody(profile), 201);
      }),
  },
  {
    method: "PUT",
    path: "/inverter/{inverter_serial_number}/preset-profile",
    scopes: [...MANAGE],
    handle: (c) =>
      validate(c.body, nameAndPreset) ??
      withNamedProfile(c, (record, profile) => {
        profile.data = record.control.capturePreset(profile.preset) ?? {};
        return topLevel(profileBody(profile));
      }),
  },
  {
    method: "POST",
    path: "/inverter/{inverter_serial_number}/preset-profile/apply",
    scopes: ["api:inverter:control", "api:inverter:control:profile:list"],
    handle: (c) =>
      validate(c.body, {
        name: ["required", "string", "max:32"],
        presets: ["optional", "array"],
        "presets.*": [PRESET_RULE],
        delete_after_apply: ["optional", "boolean"],
      }) ??
      withInverter(c, (record) => {
        const body = bodyObject(c.body);
        const filter = Array.isArray(body.presets) ? new Set(body.presets.map(String)) : undefined;
        const chosen = profilesOf(c, record.serial).filter(
          (p) => p.name === body.name && (!filter || filter.has(p.preset)),
        );
        if (chosen.length === 0) return notFound(`No preset profile named "${String(body.name)}".`);
        const statuses: Record<string, boolean> = {};
        for (const profile of chosen) {
          statuses[profile.preset] = record.control.applyPresetValues(profile.preset, profile.data);
        }
        const success = Object.values(statuses).every(Boolean);
        if (body.delete_after_apply === true || body.delete_after_apply === 1) {
          for (const profile of chosen) {
            if (!statuses[profile.preset]) continue;
            const index = c.world.presetProfiles.indexOf(profile);
            if (index >= 0) c.world.presetProfiles.splice(index, 1);
          }
        }
        return topLevel({
          success,
          message: success ? "Preset profile applied" : "Some presets could not be applied",
          statuses,
        });
      }),
  },
  {
    method: "DELETE",
    path: "/inverter/{inverter_serial_number}/preset-profile",
    scopes: [...MANAGE],
    handle: (c) =>
      validate(c.body, nameAndPreset) ??
      withNamedProfile(c, (_record, profile) => {
        if (profile.owner !== c.actor.name) return forbidden("Only the actor that created this profile can delete it.");
        c.world.presetProfiles.splice(c.world.presetProfiles.indexOf(profile), 1);
        return topLevel({ success: true });
      }),
  },
];
