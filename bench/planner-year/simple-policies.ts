import { type Battery, optimise, type SlotAction } from "../../src/optimiser/index.js";
import type { SlotClock } from "./clock.js";
import type { Year } from "./data.js";
import type { Decide } from "./simulate.js";

/** Policy 2: the battery on self-consumption (eco) all year. */
export { ecoOnly } from "../../src/backtest/simulate.js";

export const TIMER = { from: 2 * 60, to: 5 * 60, label: "02:00-05:00 UK time" } as const;

/** Policy 3: timed charge to 100% every night in fixed hours, eco otherwise. */
export function fixedTimer(clocks: readonly SlotClock[]): Decide {
  return (t) => {
    const minutes = (clocks[t] as SlotClock).minutes;
    return minutes >= TIMER.from && minutes < TIMER.to ? { mode: "charge" } : { mode: "eco" };
  };
}

/**
 * Policy 6: the exact dynamic program over the whole year with the real prices, load and solar,
 * the same action set and energy model. What it plans is what happens, since it knows everything.
 */
export function perfectForesight(
  year: Year,
  battery: Battery,
  initialSocKwh: number,
  changeCost: number,
  socStepKwh: number,
): { decide: Decide; solveMs: number; planned: number } {
  const schedule = optimise({
    importPrices: [...year.importPrice],
    exportPrices: [...year.exportPrice],
    load: [...year.load],
    solar: [...year.solar],
    battery,
    socKwh: initialSocKwh,
    mode: "eco",
    changeCost,
    terminalValue: 0,
    socStepKwh,
  });
  const actions: SlotAction[] = schedule.slots.map((slot) =>
    slot.targetKwh === undefined ? { mode: slot.mode } : { mode: slot.mode, targetKwh: slot.targetKwh },
  );
  return {
    decide: (t) => actions[t] ?? { mode: "eco" },
    solveMs: schedule.solveMs,
    planned: schedule.expectedCost,
  };
}
