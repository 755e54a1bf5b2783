import {
  acChargeIds,
  type ControlMap,
  dcDischargeIds,
  exportSlotKeys,
  type PresetFieldKey,
} from "../../local/index.js";
import { booleanValue } from "../../validation/index.js";
import type { PresetDescriptor, PresetIdentifier } from "../../vocabulary/index.js";
import {
  type Carries,
  CHARGE_LIMIT_SETTING,
  DISCHARGE_LIMIT_SETTING,
  hasBatteryLimits,
  PRESETS,
  pauseHeldByDaemon,
} from "../../vocabulary/index.js";

/*
 * The cloud's presets that the daemon uses, as writes of the settings they map to (as the cloud
 * maps them: the simulator's inverter-control/presets/ is the reference), so that a preset sent
 * over the LAN changes the same settings the cloud's would. A preset is offered on a model only
 * when the settings it needs are; a field whose setting the model lacks is refused.
 */

export type Value = boolean | number | string;

/** What a preset writes: a setting by its ID, or one of the preset's own fields that has no setting. */
export type ControlKey = number | PresetFieldKey;

/** One setting or field written by a preset, in order. */
export interface PresetWrite {
  readonly id: ControlKey;
  readonly value: Value;
}

export interface LanPreset {
  readonly identifier: PresetIdentifier;
  /** The settings and fields its values are read from (and its writes may touch). */
  settingIds(map: ControlMap): ControlKey[];
  /** Its listing entry on this model; undefined when the model lacks a setting it needs. */
  descriptor(map: ControlMap): PresetDescriptor | undefined;
  values(map: ControlMap, setting: (id: ControlKey) => Value | undefined): Record<string, unknown>;
  /** The writes the body asks for, or what is wrong with it. */
  plan(
    map: ControlMap,
    body: Readonly<Record<string, unknown>>,
  ): { readonly writes: PresetWrite[] } | { readonly error: string };
}

const SLOT_OFF = "00:00";
const ECO = 24;
const AC_CHARGE = 66;
const DC_DISCHARGE = 56;

/** A setting's rules on this model (a number's range its register's). */
const rulesOf = (map: ControlMap, id: number): string[] => [...(map.settings.get(id)?.rules ?? [])];

const isOn = (value: unknown): boolean => booleanValue(value) === true;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `slots` as sent (a list from slot 1, or an object keyed by slot number) as [number, slot] pairs. */
function slotEntries(raw: unknown): [number, Record<string, unknown>][] {
  const pairs: [number, unknown][] = Array.isArray(raw)
    ? raw.map((slot, index) => [index + 1, slot])
    : isRecord(raw)
      ? Object.entries(raw).map(([key, slot]) => [Number(key), slot])
      : [];
  return pairs.flatMap(([number, slot]) => (isRecord(slot) ? [[number, slot]] : []));
}

interface SlotIds {
  readonly start: ControlKey;
  readonly end: ControlKey;
  readonly limit: ControlKey;
}

/** Whether the model holds the setting or preset field in a register. */
const has = (map: ControlMap, key: ControlKey): boolean =>
  typeof key === "number" ? map.settings.has(key) : map.presetFields.has(key);

/** A setting's or preset field's value rules, without the markers a parameter adds. */
const valueRules = (map: ControlMap, key: ControlKey): string[] =>
  typeof key === "number"
    ? rulesOf(map, key)
    : (map.presetFields.get(key)?.rules ?? []).filter((rule) => rule !== "optional" && rule !== "integer");

/** The slots this model has: 1.. while their start and end are held. */
function slotsOn(map: ControlMap, ids: (map: ControlMap, slot: number) => SlotIds | undefined): SlotIds[] {
  const slots: SlotIds[] = [];
  for (let slot = 1; slot <= 10; slot++) {
    const one = ids(map, slot);
    if (!one || !has(map, one.start) || !has(map, one.end)) break;
    slots.push(one);
  }
  return slots;
}

/** A slot runs when its start and end differ (how an EMS's slots, which have no switch, are on). */
const runs = (start: Value | undefined, end: Value | undefined): boolean => start !== undefined && start !== end;

const descriptor = (
  identifier: PresetIdentifier,
  name: string,
  description: string,
  parameters: PresetDescriptor["parameters"],
): PresetDescriptor => ({ id: PRESETS[identifier], identifier, name, description, parameters });

interface TimedOptions {
  readonly identifier: "timed-charge" | "timed-discharge" | "timed-export";
  readonly name: string;
  readonly description: string;
  readonly enableId: number;
  readonly ids: (map: ControlMap, slot: number) => SlotIds | undefined;
  /** Whether the preset is on, from its settings, where the model has its switch. */
  readonly enabled: (setting: (id: ControlKey) => Value | undefined) => boolean;
  /**
   * Written before the enable switch when the preset is switched on (Eco mode for the discharge
   * presets). One `where held` is written only on a model that has its register: the
   * three-phase, which has no eco switch, exports in its discharge slots without one.
   */
  readonly onEnable: readonly { readonly id: number; readonly value: Value; readonly whereHeld?: true }[];
}

/**
 * A timed preset. Where the model has its switch (an inverter), `enabled` is that switch; an
 * EMS has none (its slots run when their start and end differ), so there `enabled: false`
 * clears its slots and `enabled` reads whether any runs, as the simulated cloud's EMS does.
 */
function timedPreset(options: TimedOptions): LanPreset {
  const switched = (map: ControlMap): boolean => map.settings.has(options.enableId);
  const slotsOnly = (map: ControlMap): boolean => !switched(map) && map.model === "EMS";
  const needs = (map: ControlMap): boolean =>
    slotsOn(map, options.ids).length > 0 &&
    (slotsOnly(map) ||
      (switched(map) && options.onEnable.every((write) => write.whereHeld || map.settings.has(write.id))));
  /** The onEnable writes this model holds. */
  const onEnable = (map: ControlMap): PresetWrite[] =>
    options.onEnable
      .filter((write) => map.settings.has(write.id))
      .map((write) => ({ id: write.id, value: write.value }));
  return {
    identifier: options.identifier,
    settingIds: (map) => [
      ...(switched(map) ? [options.enableId, ...(map.settings.has(ECO) ? [ECO] : [])] : []),
      ...slotsOn(map, options.ids).flatMap((slot) => [slot.start, slot.end, slot.limit]),
    ],
    descriptor(map) {
      if (!needs(map)) return undefined;
      const slots = slotsOn(map, options.ids);
      const first = slots[0] as SlotIds;
      const withLimit = has(map, first.limit);
      return descriptor(options.identifier, options.name, options.description, {
        enabled: {
          description: slotsOnly(map)
            ? "Whether any slot runs. false clears all of its slots."
            : "Whether the preset is on. false disables all of its slots.",
          validation: ["optional", "boolean"],
        },
        slots: {
          description: `Up to ${slots.length} slots: a list filled from slot 1, or an object keyed by the slot number.`,
          validation: ["optional", "array", `max:${slots.length}`],
        },
        "slots.*": { description: "One slot; fields left out keep their value.", validation: ["object"] },
        "slots.*.start_time": {
          description: "Slot start, local time.",
          validation: ["optional", ...valueRules(map, first.start)],
        },
        "slots.*.end_time": {
          description: "Slot end, local time.",
          validation: ["optional", ...valueRules(map, first.end)],
        },
        ...(withLimit
          ? {
              "slots.*.percent_limit": {
                description: "The battery level (%) at which the slot stops.",
                validation: ["optional", "integer", ...valueRules(map, first.limit)],
              },
            }
          : {}),
      });
    },
    values(map, setting) {
      const slots = slotsOn(map, options.ids);
      return {
        enabled: slotsOnly(map)
          ? slots.some((slot) => runs(setting(slot.start), setting(slot.end)))
          : options.enabled(setting),
        slots: slots.map((slot) => ({
          start_time: setting(slot.start),
          end_time: setting(slot.end),
          ...(has(map, slot.limit) ? { percent_limit: setting(slot.limit) } : {}),
        })),
      };
    },
    plan(map, body) {
      const slots = slotsOn(map, options.ids);
      if (body.max_power_watts !== undefined && body.max_power_watts !== null)
        return {
          error: `max_power_watts has no register on the ${map.model} (its battery power limit is a C-rate): send it without, or over the cloud`,
        };
      const enabled = booleanValue(body.enabled);
      const writes: PresetWrite[] = [];
      if (enabled === false) {
        // The switch goes off first so that no half-cleared slot runs in between.
        if (switched(map)) writes.push({ id: options.enableId, value: false });
        for (const slot of slots) writes.push({ id: slot.start, value: SLOT_OFF }, { id: slot.end, value: SLOT_OFF });
        return { writes };
      }
      for (const [number, slot] of slotEntries(body.slots)) {
        const ids = slots[number - 1];
        if (!ids) return { error: `slot ${number} has no registers on the ${map.model}: it has ${slots.length} slots` };
        if (typeof slot.start_time === "string") writes.push({ id: ids.start, value: slot.start_time });
        if (typeof slot.end_time === "string") writes.push({ id: ids.end, value: slot.end_time });
        if (slot.percent_limit !== undefined && slot.percent_limit !== null) {
          if (!has(map, ids.limit))
            return {
              error: `percent_limit of slot ${number} has no register on the ${map.model}: send the slot without it, or over the cloud`,
            };
          writes.push({ id: ids.limit, value: Number(slot.percent_limit) });
        }
      }
      if (enabled === true && switched(map)) writes.push(...onEnable(map), { id: options.enableId, value: true });
      return { writes };
    },
  };
}

/** An EMS's export slots (HR 2062-2070) where the model has them; otherwise the DC discharge slots. */
const exportIds = (map: ControlMap, slot: number): SlotIds | undefined =>
  map.presetFields.has(exportSlotKeys(1).start)
    ? slot === 1 || slot === 2 || slot === 3
      ? exportSlotKeys(slot)
      : undefined
    : dcDischargeIds(slot);

/** A preset whose every field is one setting. */
function mappedPreset(
  identifier: "eco-mode" | "pause-battery" | "battery-operating-range",
  name: string,
  description: string,
  fields: Readonly<
    Record<string, { readonly id: number; readonly rules: readonly string[]; readonly needed: boolean }>
  >,
  read: (value: Value | undefined) => unknown = (value) => value,
): LanPreset {
  const offered = (map: ControlMap) => Object.entries(fields).filter(([, field]) => map.settings.has(field.id));
  return {
    identifier,
    settingIds: (map) => offered(map).map(([, field]) => field.id),
    descriptor(map) {
      if (Object.values(fields).some((field) => field.needed && !map.settings.has(field.id))) return undefined;
      return descriptor(
        identifier,
        name,
        description,
        Object.fromEntries(
          offered(map).map(([key, field]) => [
            key,
            { description: `Setting ${field.id}.`, validation: [...field.rules, ...rulesOf(map, field.id)] },
          ]),
        ),
      );
    },
    values: (map, setting) => Object.fromEntries(offered(map).map(([key, field]) => [key, read(setting(field.id))])),
    plan(map, body) {
      const writes: PresetWrite[] = [];
      for (const [key, field] of Object.entries(fields)) {
        const value = body[key];
        if (value === undefined || value === null) continue;
        if (!map.settings.has(field.id))
          return { error: `${key} has no register on the ${map.model}: send it without, or over the cloud` };
        if (typeof value === "boolean" || typeof value === "number" || typeof value === "string")
          writes.push({ id: field.id, value });
      }
      return { writes };
    },
  };
}

/**
 * A preset whose fields are its own state (no setting in the listing) held in registers on some
 * models: plant EMS control, grid settings. Offered where the model has the required fields'
 * registers; a field it lacks is left out of the listing and refused when sent.
 */
function fieldPreset(
  identifier: "plant-ems-enable-control" | "grid-settings",
  name: string,
  description: string,
  fields: Readonly<Record<string, { readonly description: string; readonly needed: boolean }>>,
): LanPreset {
  const keyOf = (field: string) => `${identifier}.${field}` as PresetFieldKey;
  const offered = (map: ControlMap) => Object.keys(fields).filter((field) => map.presetFields.has(keyOf(field)));
  return {
    identifier,
    settingIds: (map) => offered(map).map(keyOf),
    descriptor(map) {
      const present = offered(map);
      if (present.length === 0) return undefined;
      if (Object.entries(fields).some(([field, spec]) => spec.needed && !present.includes(field))) return undefined;
      return descriptor(
        identifier,
        name,
        description,
        Object.fromEntries(
          present.map((field) => [
            field,
            {
              description: fields[field]?.description ?? field,
              validation: [...(map.presetFields.get(keyOf(field))?.rules ?? [])],
            },
          ]),
        ),
      );
    },
    values: (map, setting) => Object.fromEntries(offered(map).map((field) => [field, setting(keyOf(field)) ?? null])),
    plan(map, body) {
      const writes: PresetWrite[] = [];
      for (const field of Object.keys(fields)) {
        const value = body[field];
        if (value === undefined || value === null) continue;
        if (!map.presetFields.has(keyOf(field)))
          return { error: `${field} has no register on the ${map.model}: send it without, or over the cloud` };
        if (typeof value === "boolean" || typeof value === "number" || typeof value === "string")
          writes.push({ id: keyOf(field), value });
      }
      return { writes };
    },
  };
}

/** What the model's map carries, for the rules of which controls the daemon holds (vocabulary/held-limits.ts). */
const carriesIn =
  (map: ControlMap): Carries =>
  (id) =>
    map.settings.has(id);

/**
 * Pause Battery: the registers' own (HR 318-320) where the model has them; on a model with only
 * the battery power limits (HR 111/112), the daemon's emulation (src/control/pause-emulation.ts),
 * listed here so that the same entities are offered. Over the LAN it reads honestly from the
 * limits: a limit at 0 is that side paused; the slot the daemon holds is the gate's to add, and its
 * changes are the gate's (they are never planned here).
 */
function pauseBattery(own: LanPreset): LanPreset {
  const emulated = (map: ControlMap): boolean => pauseHeldByDaemon(carriesIn(map));
  return {
    identifier: own.identifier,
    settingIds: (map) => (emulated(map) ? [CHARGE_LIMIT_SETTING, DISCHARGE_LIMIT_SETTING] : own.settingIds(map)),
    descriptor(map) {
      if (!emulated(map)) return own.descriptor(map);
      return descriptor(
        "pause-battery",
        "Pause Battery",
        "Pause the battery's charging, discharging or both, all day or between the given times: held by energy2mqtt, which sets the battery's power limits to 0 while the pause holds and puts them back after.",
        {
          mode: {
            description: "0 not paused, 1 charge, 2 discharge, 3 both.",
            validation: ["required", "integer", "in:0,1,2,3"],
          },
          start_time: { description: "Start of the pause, local time.", validation: ["optional", "date_format:H:i"] },
          end_time: { description: "End of the pause, local time.", validation: ["optional", "date_format:H:i"] },
        },
      );
    },
    values(map, setting) {
      if (!emulated(map)) return own.values(map, setting);
      const charge = setting(CHARGE_LIMIT_SETTING) === 0 ? 1 : 0;
      const discharge = setting(DISCHARGE_LIMIT_SETTING) === 0 ? 2 : 0;
      return { mode: charge + discharge, start_time: null, end_time: null };
    },
    plan(map, body) {
      if (!emulated(map)) return own.plan(map, body);
      return { error: `the ${map.model} has no pause register: energy2mqtt holds its pause through the control gate` };
    },
  };
}

/** The field of Timed Export that stands for HR 272 (discharge target SOC 1) where the daemon holds it. */
export const DISCHARGE_TARGET_FIELD = "discharge_target_percent";

/**
 * Timed Export with the discharge target the daemon holds (src/control/discharge-target.ts), on a
 * model with the battery power limits to hold the discharge by (its pause the daemon's or its own
 * registers) and whose first discharge slot has no limit register (HR 272): the field is listed so
 * that its entity is offered; its value and changes are the gate's, never read or planned here.
 */
function withDischargeTarget(own: LanPreset): LanPreset {
  const held = (map: ControlMap): boolean => {
    const first = exportIds(map, 1);
    return first !== undefined && !has(map, first.limit) && hasBatteryLimits(carriesIn(map));
  };
  return {
    ...own,
    descriptor(map) {
      const listed = own.descriptor(map);
      if (!listed || !held(map)) return listed;
      return {
        ...listed,
        parameters: {
          ...listed.parameters,
          [DISCHARGE_TARGET_FIELD]: {
            description:
              "The battery level (%) at which a running discharge slot stops: held by energy2mqtt, which pauses the discharge until the slot ends.",
            validation: ["optional", "integer", "between:4,100"],
          },
        },
      };
    },
    values(map, setting) {
      const values = own.values(map, setting);
      return held(map) ? { ...values, [DISCHARGE_TARGET_FIELD]: null } : values;
    },
    plan(map, body) {
      if (body[DISCHARGE_TARGET_FIELD] !== undefined)
        return {
          error: `the ${map.model} has no discharge target register: energy2mqtt holds it through the control gate`,
        };
      return own.plan(map, body);
    },
  };
}

/** The presets a LAN path offers, where the model has their settings. */
export const LAN_PRESETS: readonly LanPreset[] = [
  mappedPreset(
    "eco-mode",
    "Eco Mode",
    "Dynamically charge and discharge the battery to minimise grid import.",
    { enabled: { id: ECO, rules: ["required"], needed: true } },
    (value) => isOn(value),
  ),
  timedPreset({
    identifier: "timed-charge",
    name: "Timed Charge",
    description: "Charge the battery from the grid during the given time slots, up to each slot's limit.",
    enableId: AC_CHARGE,
    ids: (_map, slot) => acChargeIds(slot),
    enabled: (setting) => isOn(setting(AC_CHARGE)),
    onEnable: [],
  }),
  timedPreset({
    identifier: "timed-discharge",
    name: "Timed Discharge",
    description: "The battery covers the home's demand only at the given times.",
    enableId: DC_DISCHARGE,
    ids: (_map, slot) => dcDischargeIds(slot),
    enabled: (setting) => isOn(setting(DC_DISCHARGE)) && isOn(setting(ECO)),
    onEnable: [{ id: ECO, value: true }],
  }),
  withDischargeTarget(
    timedPreset({
      identifier: "timed-export",
      name: "Timed Export",
      description: "The battery discharges at maximum power at the given times, exporting what the home does not use.",
      enableId: DC_DISCHARGE,
      ids: exportIds,
      enabled: (setting) => isOn(setting(DC_DISCHARGE)) && !isOn(setting(ECO)),
      onEnable: [{ id: ECO, value: false, whereHeld: true }],
    }),
  ),
  mappedPreset(
    "battery-operating-range",
    "Battery Operating Range",
    "The battery levels it keeps in reserve and never goes below.",
    {
      reserve_percent: { id: 71, rules: ["optional", "integer"], needed: true },
      cutoff_percent: { id: 75, rules: ["optional", "integer"], needed: false },
      max_charge_watts: { id: 72, rules: ["optional", "integer"], needed: false },
      max_discharge_watts: { id: 73, rules: ["optional", "integer"], needed: false },
    },
  ),
  fieldPreset("plant-ems-enable-control", "Plant EMS Control", "The plant minimises grid import and export.", {
    enabled: { description: "Whether the plant's EMS controls import and export.", needed: true },
  }),
  fieldPreset("grid-settings", "Grid Settings", "Import and export limitations.", {
    export_limit_enabled: { description: "Whether export to the grid is limited.", needed: false },
    export_limit_watts: { description: "The most the inverter exports, in watts.", needed: true },
  }),
  pauseBattery(
    mappedPreset(
      "pause-battery",
      "Pause Battery",
      "Pause the battery's charging, discharging or both, all day or between the given times.",
      {
        mode: { id: 96, rules: ["required", "integer"], needed: true },
        start_time: { id: 155, rules: ["optional"], needed: true },
        end_time: { id: 156, rules: ["optional"], needed: true },
      },
    ),
  ),
];

export function lanPreset(reference: string): LanPreset | undefined {
  const trimmed = reference.trim();
  return LAN_PRESETS.find(
    (preset) =>
      preset.identifier === trimmed || (/^\d+$/.test(trimmed) && PRESETS[preset.identifier] === Number(trimmed)),
  );
}
