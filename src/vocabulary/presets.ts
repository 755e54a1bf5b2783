import { z } from "zod";

/*
 * The presets by the names the daemon uses for them (the vendor's own, which its cloud and its
 * app use too): in the rules file's actions, the entities' keys, and each path's control port.
 */

/** Every preset: its identifier and its older numeric ID. */
export const PRESETS = {
  "eco-mode": 0,
  "timed-charge": 1,
  "timed-discharge": 2,
  "timed-export": 3,
  "battery-operating-range": 4,
  "reset-to-defaults": 5,
  "winter-battery-conditioning": 6,
  "plant-ems-enable-control": 7,
  "grid-settings": 14,
  "parallel-settings": 15,
  "generator-mode": 16,
  "smart-load": 17,
  "pause-battery": 18,
} as const;
export type PresetIdentifier = keyof typeof PRESETS;
export type PresetLegacyId = (typeof PRESETS)[PresetIdentifier];

/** Values of the pause-battery preset's `mode` (and of setting 96, Pause Battery). */
export const PAUSE_BATTERY_MODES = {
  0: "Not Paused",
  1: "Pause Charge",
  2: "Pause Discharge",
  3: "Pause Charge and Discharge",
} as const;
export type PauseBatteryMode = keyof typeof PAUSE_BATTERY_MODES;

/** A number, or a number written as text. */
const numeric = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/** `H:i` as written (`05:30`); reads may answer `HH:mm:ss`. In the house's local time. */
export const slotTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, "expected a time as HH:mm");

/** One slot of a timed preset: its start, end and (timed export, discharge) limit. */
export const slot = z.object({
  start_time: slotTime.nullish(),
  end_time: slotTime.nullish(),
  percent_limit: numeric.nullish(),
});
export type Slot = z.infer<typeof slot>;

/**
 * A timed preset's slots as read: an array (filled from slot 1) or an object keyed by slot number,
 * both read as an object keyed by the 1-based slot number.
 */
export const slots = z
  .union([z.array(slot), z.record(z.string().regex(/^[1-9]\d*$/, "expected a 1-based slot number"), slot)])
  .transform((input): Record<string, Slot> => {
    if (!Array.isArray(input)) return input;
    return Object.fromEntries(input.map((one, index) => [String(index + 1), one]));
  });

/** A preset's fields as the device holds them, by name (e.g. {enabled, slots}); read `slots` with `slots`. */
export type PresetValues = Record<string, unknown>;
