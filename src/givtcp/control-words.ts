import type { ControlValues } from "../control/index.js";
import type { PresetValues } from "../vocabulary/index.js";

/**
 * How GivTCP's control words map onto the daemon's presets (docs/givtcp-rest.md): one table read
 * by readData and by the writes, so that what a write sets is what the next read shows.
 */
/** Timed Export's field for the discharge target the daemon holds on a model without HR 272 (control/discharge-target.ts). */
export const HELD_TARGET = "discharge_target_percent";

export const PRESET = {
  eco: "eco-mode",
  charge: "timed-charge",
  demand: "timed-discharge",
  export: "timed-export",
  range: "battery-operating-range",
  pause: "pause-battery",
} as const;

/** GivTCP's pause modes (its `setBatteryPauseMode` and `Battery_pause_mode`) by the preset's mode number. */
export const PAUSE_MODES = ["Disabled", "PauseCharge", "PauseDischarge", "PauseBoth"] as const;
export type PauseMode = (typeof PAUSE_MODES)[number];

/**
 * GivTCP's modes, from the presets (which already tell a DC discharge for export from one for
 * demand, whether Eco mode or the last switched-on preset decides that on the model): a discharge
 * preset on is its mode; else Eco, paused when the reserve is 100 %, as GivTCP says.
 */
export const MODES = ["Eco", "Eco (Paused)", "Timed Demand", "Timed Export", "Export (Paused)"] as const;
export type GivtcpMode = (typeof MODES)[number];

export const presetOf = (controls: ControlValues, identifier: string): PresetValues =>
  controls.presets?.[identifier] ?? {};

/** Whether the device lists the preset at all (a three-phase has no eco mode or timed demand). */
export const hasPreset = (controls: ControlValues, identifier: string): boolean =>
  controls.presets?.[identifier] !== undefined;

export const isOn = (value: unknown): boolean => value === true || value === 1 || value === "1" || value === "true";

/** Slot `number` of a timed preset, whether the slots are a list or keyed by number. */
export function slotOf(values: PresetValues, number: number): Readonly<Record<string, unknown>> {
  const slots = values.slots;
  const slot = Array.isArray(slots)
    ? (slots[number - 1] as unknown)
    : typeof slots === "object" && slots !== null
      ? (slots as Record<string, unknown>)[String(number)]
      : undefined;
  return typeof slot === "object" && slot !== null ? (slot as Record<string, unknown>) : {};
}

export function modeOf(controls: ControlValues): GivtcpMode {
  if (isOn(presetOf(controls, PRESET.export).enabled)) return "Timed Export";
  if (isOn(presetOf(controls, PRESET.demand).enabled)) return "Timed Demand";
  // With no eco switch (the three-phase) the inverter covers the home whenever no timed export runs.
  if (hasPreset(controls, PRESET.eco) && !isOn(presetOf(controls, PRESET.eco).enabled)) return "Export (Paused)";
  return Number(presetOf(controls, PRESET.range).reserve_percent) === 100 ? "Eco (Paused)" : "Eco";
}

/** "00:30" -> "00:30:00", as GivTCP's Timeslots give a time; "00:00:00" when not known. */
export function timeOf(value: unknown): string {
  if (typeof value !== "string" || !/^\d{2}:\d{2}/.test(value)) return "00:00:00";
  return value.length === 5 ? `${value}:00` : value.slice(0, 8);
}
