import { z } from "zod";
import { emptyAsObject, list, numeric, opt, timestamp } from "./common.js";

/*
 * The 26 EV charger commands of the reference's Commands table: for each, the request body (with the
 * reference's bounds, checked before anything is sent) and the command data that
 * GET .../commands/{command_id} answers (read tolerantly).
 *
 * Request schemas are strict objects: an unknown field is refused rather than silently
 * dropped, because a misspelt optional field (say `limt` for set-session-energy-limit)
 * would otherwise send `{}` and remove the limit instead of setting it.
 */

// ---- request building blocks ---------------------------------------------------------------

/** PHP `H:i`: two-digit hour 00 to 23 and minutes, e.g. `05:30`. */
const hourMinute = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected a time as HH:mm (H:i), e.g. 05:30");

/** Charge current limit in amps. */
const chargeLimit = z.number().min(6).max(32);

/** ID tag id (and rename-id-tag tag_id): 1 to 20 characters. */
const tagId = z.string().min(1).max(20);

/** Day of the week: 0 Monday to 6 Sunday. */
const weekday = z.number().int().min(0).max(6);

const noFields = z.strictObject({});

export const schedulePeriodRequest = z.strictObject({
  start_time: hourMinute,
  end_time: hourMinute,
  limit: chargeLimit,
  days: z.array(weekday),
});
export type SchedulePeriodRequest = z.input<typeof schedulePeriodRequest>;

export const idTagRequest = z.strictObject({
  id: tagId,
  alias: z.string().optional(),
  /** A date (`YYYY-MM-DD`) or datetime. */
  expiry_date: timestamp.optional(),
});
export type IdTagRequest = z.input<typeof idTagRequest>;

export const INSTALLATION_MODES = ["standalone", "ct_meter", "inverter_control", "hybrid_inverter_control"] as const;
export const CONFIGURATION_MODES = ["A", "B", "C", "D", "E"] as const;
export type ConfigurationMode = (typeof CONFIGURATION_MODES)[number];
export const INVERTER_CONTROL_MODES = ["Eco", "SuperEco", "Boost"] as const;

/** Configuration modes: name, modes the charger then offers, and whether premium is needed. */
export const CONFIGURATION_MODE_INFO = {
  A: { name: "Standalone", modes: ["Boost"], premium: false },
  B: { name: "Standalone With PV", modes: ["Boost"], premium: false },
  C: { name: "CT Meter", modes: ["Boost", "Eco", "SuperEco"], premium: false },
  D: { name: "Inverter Control Cloud", modes: ["ModbusSlave"], premium: true },
  E: { name: "Inverter Control Local", modes: ["Boost", "Eco", "SuperEco"], premium: true },
} as const satisfies Record<ConfigurationMode, { name: string; modes: readonly string[]; premium: boolean }>;

// ---- command data building blocks ----------------------------------------------------------

/*
 * Command data the reference calls "empty array" or "null" carries nothing the client uses, so
 * whatever a charger answers there (`[]`, null, nothing, an object) is read as that, never refused.
 */

/** "empty array": read as []. */
const emptyData = z.unknown().transform((): [] => []);

/** "null": read as null (real chargers answer `[]`). */
const nullData = z.unknown().transform((): null => null);

/** "no description": kept as sent. */
const undescribedData = z.unknown();

/** An identifier the service may send as a string or a number; read as a string. */
const idString = z.union([z.string(), z.number().transform(String)]);

/** A boolean the service may send as 0 or 1. */
const flag = z.union([z.boolean(), z.literal(0).transform(() => false), z.literal(1).transform(() => true)]);

const rangeData = z.object({
  min: opt(numeric),
  max: opt(numeric),
  value: opt(numeric),
  unit: opt(z.string()),
});
export type EvRangeData = z.infer<typeof rangeData>;

export const scheduleData = z.object({
  id: idString,
  name: opt(z.string()),
  is_active: opt(flag),
  periods: list(
    z.object({
      days: list(z.number().int()),
      /** `HH:mm`, or `HH:mm:ss` on reads. */
      start_time: opt(z.string()),
      end_time: opt(z.string()),
      /** Amps. */
      limit: opt(numeric),
    }),
  ),
});
export type EvSchedule = z.infer<typeof scheduleData>;

export const idTagData = z.object({
  id: z.string(),
  alias: opt(z.string()),
  expiry_date: opt(timestamp),
  created_at: opt(timestamp),
});
export type EvIdTag = z.infer<typeof idTagData>;

/** Plug and go as read: whether it is on, whether the charger lets it be changed, and why not. */
export interface EvPlugAndGo {
  /** Null when the charger does not say. */
  readonly value: boolean | null;
  /** True when plug and go cannot be changed now; false when the answer does not say. */
  readonly disabled: boolean;
  readonly message: string | null;
}

/**
 * set-plug-and-go data. The real service sends `{value, disabled, message}` (a real charger's
 * answer: `{"value": false, "disabled": false, "message": null}`); the reference shows a bare
 * boolean. Both, and 0/1, read as one shape.
 */
const plugAndGoData = z
  .union([emptyAsObject(z.object({ value: opt(flag), disabled: opt(flag), message: opt(z.string()) })), flag])
  .nullish()
  .transform((data): EvPlugAndGo => {
    if (data === null || data === undefined) return { value: null, disabled: false, message: null };
    if (typeof data === "boolean") return { value: data, disabled: false, message: null };
    return { value: data.value ?? null, disabled: data.disabled ?? false, message: data.message ?? null };
  });

/**
 * change-mode data. The reference shows `{active, available: [mode ids]}`; a real charger
 * answers a list of modes, each `{key, title, active, available, ...}`. Both read as the
 * reference's shape: the active mode's key, and the keys of the modes available.
 */
const changeModeData = z.union([
  z.object({ active: opt(z.string()), available: list(z.string()) }),
  z
    .array(
      z.object({
        key: z.string(),
        active: opt(flag),
        available: opt(flag),
      }),
    )
    .transform((modes) => ({
      active: modes.find((mode) => mode.active === true)?.key,
      available: modes.filter((mode) => mode.available !== false).map((mode) => mode.key),
    })),
]);

/**
 * set-active-schedule data: `{schedule_id}` in the reference; a real charger answers
 * `{"schedule": null}`. `schedule` (an id, or a schedule with an id) is read as schedule_id.
 */
const activeScheduleData = z
  .object({
    schedule_id: opt(idString),
    schedule: opt(z.union([idString, z.object({ id: idString })])),
  })
  .transform((data) => {
    const fromSchedule =
      data.schedule === null || data.schedule === undefined
        ? data.schedule
        : typeof data.schedule === "string"
          ? data.schedule
          : data.schedule.id;
    return { schedule_id: data.schedule_id ?? fromSchedule };
  });

// ---- the commands --------------------------------------------------------------------------

export const EV_COMMANDS = {
  "start-charge": { request: noFields, data: emptyData },
  "stop-charge": { request: noFields, data: emptyData },
  "adjust-charge-power-limit": {
    request: z.strictObject({ limit: chargeLimit }),
    /** unit: A or W. */
    data: rangeData,
  },
  "set-plug-and-go": {
    request: z.strictObject({ enabled: z.boolean() }),
    data: plugAndGoData,
  },
  "set-session-energy-limit": {
    /** kWh; leave `limit` out to send none. */
    request: z.strictObject({ limit: z.number().min(0.1).max(250).optional() }),
    data: rangeData,
  },
  "set-schedule": {
    /** The new schedule is not yet active: follow with set-active-schedule. */
    request: z.strictObject({
      schedule_id: z.string().optional(),
      name: z.string().max(30),
      periods: z.array(schedulePeriodRequest),
    }),
    data: z.object({ schedules: list(scheduleData) }),
  },
  "unlock-connector": { request: noFields, data: emptyData },
  "delete-charging-profile": {
    /** Leave schedule_id out to delete every schedule. */
    request: z.strictObject({ schedule_id: z.string().optional() }),
    data: emptyData,
  },
  "change-mode": {
    request: z.strictObject({ mode: z.string().min(1) }),
    data: changeModeData,
  },
  "restart-charger": {
    request: z.strictObject({ hard_reset: z.boolean().optional() }),
    data: emptyData,
  },
  "change-randomised-delay-duration": {
    /** Seconds. */
    request: z.strictObject({ duration: z.number().min(600).max(1800) }),
    data: nullData,
  },
  "add-id-tags": {
    request: z.strictObject({ id_tags: z.array(idTagRequest).min(1) }),
    data: z.object({ id_tags: list(idTagData), maximum_id_tags: opt(numeric) }),
  },
  "delete-id-tags": {
    request: z.strictObject({ id_tags: z.array(tagId) }),
    data: nullData,
  },
  "rename-id-tag": {
    request: z.strictObject({ tag_id: tagId, alias: z.string() }),
    data: nullData,
  },
  /** Deprecated: use configuration-mode. */
  "installation-mode": {
    request: z.strictObject({ installation_mode: z.enum(INSTALLATION_MODES) }),
    data: opt(z.string()),
  },
  "setup-version": {
    request: z.strictObject({ setup_version: z.number().int() }),
    data: undescribedData,
  },
  "set-active-schedule": {
    /** Leave schedule_id out to deactivate the active schedule. */
    request: z.strictObject({ schedule_id: z.string().optional() }),
    data: activeScheduleData,
  },
  "set-max-import-capacity": {
    /** Amps. */
    request: z.strictObject({ value: z.number().int().min(40).max(100).optional() }),
    data: undescribedData,
  },
  "enable-front-panel-led": {
    request: z.strictObject({ value: z.boolean() }),
    data: undescribedData,
  },
  "configure-inverter-control": {
    request: z.strictObject({
      /** Share of excess solar for the battery, e.g. "0.5". */
      inverter_battery_export_split: z.string().optional(),
      /** Watts. */
      max_battery_discharge_power_to_evc: z.number().int().min(0).optional(),
      mode: z.enum(INVERTER_CONTROL_MODES).optional(),
    }),
    data: z.object({
      inverter_battery_export_split: opt(z.union([z.string(), z.number()])),
      max_battery_discharge_power_to_evc: opt(numeric),
      mode: opt(z.string()),
    }),
  },
  "perform-factory-reset": { request: noFields, data: emptyData },
  "configuration-mode": {
    request: z.strictObject({ configuration_mode: z.enum(CONFIGURATION_MODES) }),
    data: z.object({ value: opt(z.string()) }),
  },
  "enable-local-control": {
    /** Local Modbus control. */
    request: z.strictObject({ value: z.boolean() }),
    data: undescribedData,
  },
  "read-cp-voltage-and-duty-cycle": { request: noFields, data: emptyData },
  "adjust-cp-voltage-range": {
    request: z.strictObject({ min: z.number().min(7.6).max(8), max: z.number().min(10).max(10.5) }),
    data: z.object({ min: opt(numeric), max: opt(numeric) }),
  },
  "adjust-suspended-state-wait-timeout": {
    /** Seconds; 0 means never leave the suspended state. */
    request: z.strictObject({ value: z.number().int().min(0).max(43200).optional() }),
    data: z.object({ value: opt(numeric) }),
  },
} as const satisfies Record<string, { readonly request: z.ZodType; readonly data: z.ZodType }>;

export type EvCommandId = keyof typeof EV_COMMANDS;
/** The request body the caller gives for a command. */
export type EvCommandRequest<C extends EvCommandId> = z.input<(typeof EV_COMMANDS)[C]["request"]>;
/** The command data that Get Command Data answers, as parsed. */
export type EvCommandData<C extends EvCommandId> = z.output<(typeof EV_COMMANDS)[C]["data"]>;

/** Every command ID the client knows, in the reference's order. */
export const EV_COMMAND_IDS = Object.freeze(Object.keys(EV_COMMANDS)) as readonly EvCommandId[];

export function isEvCommandId(value: string): value is EvCommandId {
  return Object.hasOwn(EV_COMMANDS, value);
}
