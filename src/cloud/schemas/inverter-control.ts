import { z } from "zod";
import {
  PAUSE_BATTERY_MODES,
  PRESETS,
  type PresetIdentifier,
  slot,
  slots,
  slotTime,
} from "../../vocabulary/presets.js";
import { type RemoteControlResult, remoteControlResult } from "../results.js";
import { dataOrTopLevel, list, oneOrMany, opt } from "./common.js";

export type { PauseBatteryMode, PresetIdentifier, PresetLegacyId, Slot } from "../../vocabulary/presets.js";
// The presets' names and slots are the daemon's words (src/vocabulary/presets.ts), which this contract uses too.
export { PAUSE_BATTERY_MODES, PRESETS, slot, slots, slotTime };

/** PHP sends an empty map as `[]`; read it as `{}`. */
const emptyArrayAsObject = (input: unknown): unknown => (Array.isArray(input) && input.length === 0 ? {} : input);

export const settingDescriptor = z.object({
  id: z.number().int(),
  name: z.string(),
  /** A human-readable rule, e.g. "Value must be between 4 and 100". */
  validation: opt(z.string()),
  /** Rules of the dynamic validation table, e.g. ["between:4,100"] or ["date_format:H:i"]. */
  validation_rules: list(z.string()),
});
export type SettingDescriptor = z.infer<typeof settingDescriptor>;

/** GET .../settings: a list; the documentation's example shows a lone setting, read as a list of one. */
export const settingList = oneOrMany(settingDescriptor).describe("the setting list");

/** The value a setting holds or is written with. */
export const settingValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type SettingValue = z.infer<typeof settingValue>;

/** The presets that preset profiles (and their queries) accept, as string identifiers. */
export const PROFILE_PRESETS = [
  "eco-mode",
  "timed-charge",
  "timed-discharge",
  "timed-export",
  "battery-operating-range",
  "pause-battery",
  "winter-battery-conditioning",
  "grid-settings",
  "parallel-settings",
  "generator-mode",
  "smart-load",
] as const satisfies readonly PresetIdentifier[];
export type ProfilePreset = (typeof PROFILE_PRESETS)[number];
export const profilePreset = z.enum(PROFILE_PRESETS);

export const presetParameter = z.object({
  description: opt(z.string()),
  /** Rules of the dynamic validation table; a lone string is read as one rule. */
  validation: z.preprocess((input) => (typeof input === "string" ? [input] : input), list(z.string())),
});
export type PresetParameter = z.infer<typeof presetParameter>;

export const presetDescriptor = z.object({
  /** The legacy numeric ID. */
  id: z.number().int(),
  /** The string ID; older responses leave it out. */
  identifier: opt(z.string()),
  name: z.string(),
  description: opt(z.string()),
  /** Parameter name -> rules to obey in Modify Preset; empty when not shown (smart-load). */
  parameters: z.preprocess(
    (input) => (input === null || input === undefined ? {} : emptyArrayAsObject(input)),
    z.record(z.string(), presetParameter),
  ),
});
export type PresetDescriptor = z.infer<typeof presetDescriptor>;

/** GET .../presets. */
export const presetList = z
  .array(presetDescriptor, {
    error: (issue) => (issue.code === "invalid_type" ? "expected the preset list (an array of presets)" : undefined),
  })
  .describe("the preset list");

const slotWriteTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected a time as HH:mm");
const slotWrite = z.looseObject({
  start_time: slotWriteTime.optional(),
  end_time: slotWriteTime.optional(),
  percent_limit: z.number().optional(),
});

/**
 * Slots as written in Modify Preset: an array filled from slot 1, or an object keyed by the
 * 1-based slot number holding only the slots (and fields) to change. Times are `HH:mm`.
 */
export const slotsInput = z.union([
  z.array(slotWrite),
  z.record(z.string().regex(/^[1-9]\d*$/, "expected a 1-based slot number"), slotWrite),
]);
export type SlotInput = { start_time?: string; end_time?: string; percent_limit?: number };
export type SlotsInput = readonly SlotInput[] | Readonly<Record<number, SlotInput>>;

/**
 * The current values of a preset (Get Preset Values): the preset's parameters, e.g. {enabled}
 * or {enabled, slots}. Kept loose since presets are dynamically validated; read `slots` with
 * the `slots` schema when needed.
 */
export const presetValues = z.preprocess(emptyArrayAsObject, z.record(z.string(), z.unknown()));
export type PresetValues = z.infer<typeof presetValues>;

export const MAX_NAME_LENGTH = 32;

/** Preset profile and snapshot names: 1 to 32 characters (counted as characters, as the service does). */
export const profileName = z
  .string()
  .min(1, "expected a name")
  .refine((name) => Array.from(name).length <= MAX_NAME_LENGTH, `at most ${MAX_NAME_LENGTH} characters`);

/** A profile's stored preset values: an array or an object. */
export const profileData = z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]);

export const presetProfile = z.object({
  id: z.number().int(),
  /** The inverter serial. */
  inverter_id: z.string(),
  /** A preset identifier. */
  preset_id: z.string(),
  name: z.string(),
  scope: opt(z.string()),
  data: opt(profileData),
});
export type PresetProfile = z.infer<typeof presetProfile>;

/**
 * Create/Update Preset Profile answer with the profile at the top level. `dataOrTopLevel`
 * cannot tell that apart from a wrapped one, since the profile has a `data` field of its own:
 * unwrap only a body that has `data` but no profile `id`.
 */
/** A profile at the top level (201 on create) or inside `data`; a top-level profile's own `data` stays put. */
export const presetProfileAnswer = dataOrTopLevel(presetProfile);

export const applyProfileResult = z.object({
  /** True only if every profile applied. */
  success: z.boolean(),
  message: opt(z.string()),
  /** Preset identifier -> true, false or null; the meaning is not documented. */
  statuses: z.preprocess(
    (input) => (input === null || input === undefined ? {} : emptyArrayAsObject(input)),
    z.record(z.string(), z.boolean().nullable()),
  ),
});
export type ApplyProfileResult = z.infer<typeof applyProfileResult>;

export const snapshotExists = z.object({ exists: z.boolean() });

export const snapshotResult = z.object({
  success: z.boolean(),
  message: opt(z.string()),
});
export type SnapshotResult = z.infer<typeof snapshotResult>;

/** A single-device read or write answer: `{value, success, message}`. */
export const remoteControlAnswer = z
  .object({
    value: settingValue.optional(),
    success: opt(z.boolean()),
    message: opt(z.string()),
  })
  .transform(
    (answer): RemoteControlResult<SettingValue> => remoteControlResult({ ...answer, value: answer.value ?? null }),
  );

const multiValue = z.object({
  value: settingValue.optional(),
  success: opt(z.boolean()),
  message: opt(z.string()),
});

const multiRow = multiValue.extend({
  serial: opt(z.string()),
  inverter_serial: opt(z.string()),
  inverter_serial_number: opt(z.string()),
  serial_number: opt(z.string()),
});

/**
 * A multi-control answer, whose shape the reference does not show. Tolerated: an object keyed
 * by serial whose values are a plain value or `{value, success?, message?}`, or an array of
 * `{serial | inverter_serial, value}`. Read as serial -> result; serials the answer leaves out
 * are absent.
 */
export const multiControlResults = z
  .union([
    z.array(
      multiRow.refine(
        (row) => (row.serial ?? row.inverter_serial ?? row.inverter_serial_number ?? row.serial_number) !== undefined,
        { message: "expected the row's serial (serial or inverter_serial)" },
      ),
    ),
    z.record(z.string(), z.union([multiValue, settingValue])),
  ])
  .transform((answer): Record<string, RemoteControlResult<SettingValue>> => {
    const out: Record<string, RemoteControlResult<SettingValue>> = {};
    if (Array.isArray(answer)) {
      for (const row of answer) {
        const serial = row.serial ?? row.inverter_serial ?? row.inverter_serial_number ?? row.serial_number ?? "";
        out[serial] = remoteControlResult({ value: row.value ?? null, success: row.success, message: row.message });
      }
      return out;
    }
    for (const [serial, entry] of Object.entries(answer)) {
      out[serial] =
        typeof entry === "object" && entry !== null
          ? remoteControlResult({ value: entry.value ?? null, success: entry.success, message: entry.message })
          : remoteControlResult({ value: entry });
    }
    return out;
  });
