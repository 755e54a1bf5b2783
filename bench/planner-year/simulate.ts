import { type Battery, type Mode, type SlotAction, slotEnergy } from "../../src/optimiser/index.js";
import type { Year } from "./data.js";

export const SLOT_HOURS = 0.5;

/** What a policy decides for slot t, knowing the SoC and mode at its start (and whatever else it keeps). */
export type Decide = (t: number, socKwh: number, mode: Mode) => SlotAction;

export interface Outcome {
  /** GBP over the year, standing charge excluded. */
  readonly cost: number;
  /** Energy taken out of the battery (stored side) over the usable capacity. */
  readonly cycles: number;
  /** Slots whose mode differs from the slot before (the year starts in eco). */
  readonly modeChanges: number;
  readonly importKwh: number;
  readonly exportKwh: number;
}

/** Runs the year half-hour by half-hour through the shared energy model with the real load and solar. */
export function simulate(year: Year, battery: Battery, initialSocKwh: number, decide: Decide): Outcome {
  let soc = initialSocKwh;
  let mode: Mode = "eco";
  let cost = 0;
  let drawn = 0;
  let modeChanges = 0;
  let importKwh = 0;
  let exportKwh = 0;
  for (let t = 0; t < year.starts.length; t++) {
    const action = decide(t, soc, mode);
    if (action.mode !== mode) modeChanges++;
    const load = year.load[t] as number;
    const solar = year.solar[t] as number;
    const result = slotEnergy(battery, SLOT_HOURS, action.mode, soc, load, solar, action.targetKwh);
    cost += result.importKwh * (year.importPrice[t] as number) - result.exportKwh * (year.exportPrice[t] as number);
    drawn += result.dischargedKwh / battery.dischargeEfficiency;
    importKwh += result.importKwh;
    exportKwh += result.exportKwh;
    soc = result.socKwh;
    mode = action.mode;
  }
  return { cost, cycles: drawn / battery.capacityKwh, modeChanges, importKwh, exportKwh };
}

/** The house with no battery: solar serves the load, the rest is imported or exported (up to the export limit). */
export function withoutBattery(year: Year, battery: Battery): Outcome {
  let cost = 0;
  let importKwh = 0;
  let exportKwh = 0;
  const cap = battery.exportLimitKw === undefined ? Number.POSITIVE_INFINITY : battery.exportLimitKw * SLOT_HOURS;
  for (let t = 0; t < year.starts.length; t++) {
    const grid = (year.load[t] as number) - (year.solar[t] as number);
    const bought = Math.max(0, grid);
    const sold = Math.min(cap, Math.max(0, -grid));
    cost += bought * (year.importPrice[t] as number) - sold * (year.exportPrice[t] as number);
    importKwh += bought;
    exportKwh += sold;
  }
  return { cost, cycles: 0, modeChanges: 0, importKwh, exportKwh };
}
