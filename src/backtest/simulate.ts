import { type Battery, type Mode, type SlotAction, type SlotResult, slotEnergy } from "../optimiser/index.js";
import type { HalfHourSeries } from "./series.js";

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

/** One half-hour as the year ran it, for a policy that keeps a tally of its own (the car's peak import). */
export interface SimulatedSlot {
  readonly t: number;
  readonly action: SlotAction;
  /** The house's real load and solar, kWh (without the extra load). */
  readonly load: number;
  readonly solar: number;
  readonly energy: SlotResult;
}

/** A step of the year: the battery's action and any load on top of the house's (a car charging), kWh. */
export type Step = (
  t: number,
  socKwh: number,
  mode: Mode,
) => { readonly action: SlotAction; readonly extraKwh: number };

/** The battery on self-consumption (eco) throughout. */
export const ecoOnly: Decide = () => ({ mode: "eco" });

/** Runs the year half-hour by half-hour through the shared energy model with the real load and solar. */
export function simulate(year: HalfHourSeries, battery: Battery, initialSocKwh: number, decide: Decide): Outcome {
  return simulateSteps(year, battery, initialSocKwh, (t, soc, mode) => ({ action: decide(t, soc, mode), extraKwh: 0 }));
}

/** simulate with extra load per slot and a look at each slot as it ran. */
export function simulateSteps(
  year: HalfHourSeries,
  battery: Battery,
  initialSocKwh: number,
  step: Step,
  observe?: (slot: SimulatedSlot) => void,
): Outcome {
  let soc = initialSocKwh;
  let mode: Mode = "eco";
  let cost = 0;
  let drawn = 0;
  let modeChanges = 0;
  let importKwh = 0;
  let exportKwh = 0;
  for (let t = 0; t < year.starts.length; t++) {
    const { action, extraKwh } = step(t, soc, mode);
    if (action.mode !== mode) modeChanges++;
    const load = year.load[t] as number;
    const solar = year.solar[t] as number;
    const energy = slotEnergy(battery, SLOT_HOURS, action.mode, soc, load + extraKwh, solar, action.targetKwh);
    observe?.({ t, action, load, solar, energy });
    cost += energy.importKwh * (year.importPrice[t] as number) - energy.exportKwh * (year.exportPrice[t] as number);
    drawn += energy.dischargedKwh / battery.dischargeEfficiency;
    importKwh += energy.importKwh;
    exportKwh += energy.exportKwh;
    soc = energy.socKwh;
    mode = action.mode;
  }
  return { cost, cycles: drawn / battery.capacityKwh, modeChanges, importKwh, exportKwh };
}

/** The house with no battery: solar serves the load, the rest is imported or exported (up to the export limit). */
export function withoutBattery(
  year: HalfHourSeries,
  battery: Battery,
  observe?: (t: number, importKwh: number, exportKwh: number) => void,
): Outcome {
  let cost = 0;
  let importKwh = 0;
  let exportKwh = 0;
  const cap = battery.exportLimitKw === undefined ? Number.POSITIVE_INFINITY : battery.exportLimitKw * SLOT_HOURS;
  for (let t = 0; t < year.starts.length; t++) {
    const grid = (year.load[t] as number) - (year.solar[t] as number);
    const bought = Math.max(0, grid);
    const sold = Math.min(cap, Math.max(0, -grid));
    observe?.(t, bought, sold);
    cost += bought * (year.importPrice[t] as number) - sold * (year.exportPrice[t] as number);
    importKwh += bought;
    exportKwh += sold;
  }
  return { cost, cycles: 0, modeChanges: 0, importKwh, exportKwh };
}
