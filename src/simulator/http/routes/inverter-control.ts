import type { ControlAnswer } from "../../inverter-control/index.js";
import { notFound, ok, topLevel } from "../envelope.js";
import { bodyObject, type Route } from "../route.js";
import { withInverter } from "./inverter-lookup.js";
import { validate } from "./validation.js";

const NO_ACCESS = { value: -3, success: false, message: "Device does not exist or access denied" };

/**
 * A read that worked answers `{value}` only (avasapollo_read_*.json); one that did not keeps
 * the remote control code with success and message, as a refused write does.
 */
function readAnswer(answer: ControlAnswer): ControlAnswer | { value: ControlAnswer["value"] } {
  return answer.success ? { value: answer.value } : answer;
}

function settingId(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

export const inverterControlRoutes: readonly Route[] = [
  {
    method: "GET",
    path: "/inverter/{inverter_serial_number}/presets",
    scopes: ["api:inverter:control"],
    handle: (c) => withInverter(c, (record) => ok(record.control.presetsList())),
  },
  {
    method: "GET",
    path: "/inverter/{inverter_serial_number}/presets/{id}",
    scopes: ["api:inverter:control"],
    handle: (c) =>
      withInverter(c, (record) => {
        const values = record.control.presetValues(c.params.id ?? "");
        return values ? ok(values) : notFound(`Preset ${c.params.id} not found.`);
      }),
  },
  {
    method: "POST",
    path: "/inverter/{inverter_serial_number}/presets/{preset}",
    scopes: ["api:inverter:control"],
    handle: (c) =>
      validate(c.body, { context: ["optional", "string"], force: ["optional", "boolean"] }) ??
      withInverter(c, (record) => {
        const result = record.control.applyPreset(c.params.preset ?? "", bodyObject(c.body));
        if (result.kind === "unknown") return notFound(`Preset ${c.params.preset} not found.`);
        if (result.kind === "invalid") {
          return { status: 422, body: { message: "The given data was invalid.", errors: result.errors } };
        }
        return topLevel({ success: result.success, message: result.message }, 201);
      }),
  },
  {
    method: "GET",
    path: "/inverter/{inverter_serial_number}/settings",
    scopes: ["api:inverter:control"],
    handle: (c) => withInverter(c, (record) => ok(record.control.settingsList())),
  },
  {
    method: "POST",
    path: "/inverter/{inverter_serial_number}/settings/{setting_id}/read",
    scopes: ["api:inverter:control"],
    handle: (c) => {
      const id = settingId(c.params.setting_id);
      if (id === undefined) return notFound("Setting not found.");
      return (
        validate(c.body, { context: ["optional", "string"] }) ??
        withInverter(c, (record) => ok(readAnswer(record.control.read(id))))
      );
    },
  },
  {
    method: "POST",
    path: "/inverter/{inverter_serial_number}/settings/{setting_id}/write",
    scopes: ["api:inverter:control"],
    handle: (c) => {
      const id = settingId(c.params.setting_id);
      if (id === undefined) return notFound("Setting not found.");
      const body = bodyObject(c.body);
      if (!("value" in body) || body.value === null) {
        return {
          status: 422,
          body: { message: "The given data was invalid.", errors: { value: ["The value field is required."] } },
        };
      }
      return (
        validate(body, { context: ["optional", "string"] }) ??
        withInverter(c, (record) => ok(record.control.write(id, body.value)))
      );
    },
  },
  {
    method: "POST",
    path: "/multi-control/read",
    scopes: ["api:inverter:control"],
    handle: (c) =>
      multiControl(c.body, false, (serial, id) => {
        const record = c.world.inverter(serial, c.actor, c.now);
        return record ? record.control.read(id).value : NO_ACCESS.value;
      }),
  },
  {
    method: "POST",
    path: "/multi-control/write",
    scopes: ["api:inverter:control"],
    handle: (c) =>
      multiControl(c.body, true, (serial, id, value) => {
        const record = c.world.inverter(serial, c.actor, c.now);
        return record ? record.control.write(id, value).value : NO_ACCESS.value;
      }),
  },
];

function multiControl(
  raw: unknown,
  write: boolean,
  each: (serial: string, settingId: number, value: unknown) => unknown,
) {
  const body = bodyObject(raw);
  const problem = validate(body, {
    inverter_serials: ["required", "string[]", "min:1", "max:1000"],
    "inverter_serials.*": ["string"],
    setting_id: ["required", "integer"],
    ...(write ? { value: ["required"] } : {}),
  });
  if (problem) return problem;
  const serials = (body.inverter_serials as unknown[]).map(String);
  const results: Record<string, unknown> = {};
  for (const serial of serials) results[serial] = each(serial, Number(body.setting_id), body.value);
  return ok(results);
}
