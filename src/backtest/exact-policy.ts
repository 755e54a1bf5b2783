import { type Battery, type SlotAction, slotEnergy } from "../optimiser/index.js";
import type { ExactSlot } from "./exact.js";
import type { HalfHourSeries } from "./series.js";
import { type Decide, SLOT_HOURS } from "./simulate.js";

const EPS = 1e-6;

/**
 * The exact optimum's schedule as modes the meter runs: a slot that charges is a timed charge to
 * the planned SoC, one that discharges a timed export down to it; otherwise eco or hold when they
 * do the same, else a timed charge to the SoC already there (nothing moves). Simulating it checks
 * that the mixed-integer program's answer is one the bench's meter can reach, and at what cost.
 */
export function exactDecide(year: HalfHourSeries, battery: Battery, slots: readonly ExactSlot[]): Decide {
  return (t, socKwh) => {
    const slot = slots[t];
    if (!slot) return { mode: "eco" };
    const load = year.load[t] as number;
    const solar = year.solar[t] as number;
    const same = (action: SlotAction): boolean => {
      const result = slotEnergy(battery, SLOT_HOURS, action.mode, socKwh, load, solar, action.targetKwh);
      return (
        Math.abs(result.chargedKwh - slot.chargeKwh) < EPS && Math.abs(result.dischargedKwh - slot.dischargeKwh) < EPS
      );
    };
    for (const action of [{ mode: "eco" }, { mode: "hold" }] as const) if (same(action)) return action;
    if (slot.dischargeKwh > EPS) return { mode: "export", targetKwh: slot.socKwh };
    return { mode: "charge", targetKwh: slot.chargeKwh > EPS ? slot.socKwh : socKwh };
  };
}
