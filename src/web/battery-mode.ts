import { z } from "zod";
import { localMinuteOfDay } from "../time/index.js";
import { PAUSE_BATTERY_MODES, type PresetValues, slots } from "../vocabulary/index.js";
import type { BatteryMode } from "./api-types.js";

/** Who last changed a preset of a device, by `serial:preset` (lower-cased serial). */
export type PresetAuthors = ReadonlyMap<string, { readonly rule: string | null }>;

export const presetKey = (serial: string, preset: string): string => `${serial.toLowerCase()}:${preset}`;

const onOff = z.union([z.boolean(), z.number(), z.string()]).transform((value) => {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  return ["1", "true", "on", "enabled"].includes(value.toLowerCase());
});
const timedPreset = z.object({ enabled: onOff.optional(), slots: slots.optional() });
const pausePreset = z.object({ mode: z.coerce.number().int().optional() });
const ecoPreset = z.object({ enabled: onOff.optional() });

const TIMED = [
  { preset: "timed-export", mode: "timed-export", words: "timed export" },
  { preset: "timed-discharge", mode: "timed-discharge", words: "timed discharge" },
  { preset: "timed-charge", mode: "timed-charge", words: "timed charge" },
] as const;

const clockMinutes = (text: string | null | undefined): number | undefined => {
  const match = /^(\d{2}):(\d{2})/.exec(text ?? "");
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
};

/** The slot open at `minute` (minutes since local midnight), one that runs past midnight included. */
function openSlot(values: PresetValues | undefined, minute: number): { end: string; limit: number | null } | undefined {
  const parsed = timedPreset.safeParse(values ?? {});
  if (!parsed.success || parsed.data.enabled !== true) return undefined;
  for (const slot of Object.values(parsed.data.slots ?? {})) {
    const start = clockMinutes(slot.start_time);
    const end = clockMinutes(slot.end_time);
    if (start === undefined || end === undefined || start === end) continue;
    const open = start < end ? minute >= start && minute < end : minute >= start || minute < end;
    if (open)
      return {
        end: (slot.end_time ?? "").slice(0, 5),
        limit: typeof slot.percent_limit === "number" ? slot.percent_limit : null,
      };
  }
  return undefined;
}

/**
 * What the battery is doing by the device's own settings as last read or written: paused, a timed
 * charge, discharge or export whose slot is open now, or eco; and who set it (a rule, or the
 * owner through Home Assistant, the CLI or the vendor's app). Undefined before any preset is known.
 */
export function batteryMode(
  serial: string,
  presets: Readonly<Record<string, PresetValues>> | undefined,
  authors: PresetAuthors,
  now: number,
  timeZone: string,
): BatteryMode | undefined {
  if (!presets || Object.keys(presets).length === 0) return undefined;
  const why = (preset: string): { why: string; rule: string | null } => {
    const rule = authors.get(presetKey(serial, preset))?.rule ?? null;
    return rule ? { why: `rule ${rule}`, rule } : { why: "your setting", rule: null };
  };
  const pause = pausePreset.safeParse(presets["pause-battery"] ?? {});
  const pauseMode = pause.success ? pause.data.mode : undefined;
  if (pauseMode !== undefined && pauseMode !== 0) {
    const text = PAUSE_BATTERY_MODES[pauseMode as keyof typeof PAUSE_BATTERY_MODES] ?? "paused";
    return { mode: "paused", words: `paused (${text.toLowerCase()})`, ...why("pause-battery") };
  }
  const minute = localMinuteOfDay(now, timeZone);
  for (const timed of TIMED) {
    const slot = openSlot(presets[timed.preset], minute);
    if (slot)
      return {
        mode: timed.mode,
        words: `${timed.words} until ${slot.end}${slot.limit === null ? "" : ` (limit ${slot.limit}%)`}`,
        ...why(timed.preset),
      };
  }
  const eco = ecoPreset.safeParse(presets["eco-mode"] ?? {});
  if (eco.success && eco.data.enabled === true) return { mode: "eco", words: "eco", ...why("eco-mode") };
  if (eco.success && eco.data.enabled === false)
    return { mode: "other", words: "eco off, no timed slot open", ...why("eco-mode") };
  return { mode: "other", words: "no timed slot open", why: "your setting", rule: null };
}
