import { HOUR_MS, MINUTE_MS } from "../../time/index.js";
import type { Rate } from "../tariffs/tariff.js";
import { type PlannedSlot, planWindow, type WindowPlan } from "./window-planner.js";

export {
  type Interval,
  merge,
  type PlanFallback,
  type PlannedSlot,
  planWindow,
  type WindowPlan,
} from "./window-planner.js";

export interface EnergyPlan extends WindowPlan {
  /** Energy to draw from the grid to meet the target. */
  readonly requiredKwh: number;
  /** Energy the chosen slots draw. */
  readonly plannedKwh: number;
  /** What the chosen slots cost; undefined when some have no price. */
  readonly cost: number | undefined;
}

export interface BatteryPlan extends EnergyPlan {
  /** Expected SoC (%) at now, each slot boundary and the deadline; the house's own use is not modelled. */
  readonly soc: readonly { readonly at: number; readonly soc: number }[];
  /** The SoC expected at the deadline. */
  readonly finalSoc: number;
}

interface Common {
  readonly now: number;
  readonly deadline: number;
  readonly rates: readonly Rate[];
  /** Charge power, kW. */
  readonly chargeKw: number;
  readonly split: boolean;
}

export interface BatteryInput extends Common {
  readonly capacityKwh: number;
  /** Current SoC, %. */
  readonly soc: number;
  /** Target SoC, %. */
  readonly targetSoc: number;
  /** Grid to battery, 0 to 1. */
  readonly efficiency: number;
}

export interface EvInput extends Common {
  readonly kwh: number;
}

/** Reach a battery SoC by the deadline in the cheapest slots. */
export function planBattery(input: BatteryInput): BatteryPlan {
  const storedKwh = (Math.max(0, input.targetSoc - input.soc) / 100) * input.capacityKwh;
  const plan = planEnergy(input, storedKwh / input.efficiency);
  const perGridKwh = (input.efficiency / input.capacityKwh) * 100;
  const ceiling = Math.max(input.soc, input.targetSoc);
  const soc = [{ at: input.now, soc: input.soc }];
  let level = input.soc;
  let at = input.now;
  for (const slot of plan.slots) {
    if (slot.start > at) soc.push({ at: slot.start, soc: level });
    level = Math.min(ceiling, level + gridKwh(slot, input.chargeKw) * perGridKwh);
    soc.push({ at: slot.end, soc: round(level) });
    at = slot.end;
  }
  if (input.deadline > at) soc.push({ at: input.deadline, soc: round(level) });
  return { ...plan, soc, finalSoc: round(level) };
}

/** Deliver kWh to the car by the deadline in the cheapest slots. */
export function planEv(input: EvInput): EnergyPlan {
  return planEnergy(input, input.kwh);
}

function planEnergy(input: Common, requiredKwh: number): EnergyPlan {
  const plan = planWindow({
    now: input.now,
    deadline: input.deadline,
    rates: input.rates,
    // Whole minutes (inverter slots are set as HH:MM); the tolerance keeps 5.7 / 0.95 from becoming 121 minutes.
    durationMs: Math.ceil((requiredKwh / input.chargeKw) * 60 - 1e-6) * MINUTE_MS,
    split: input.split,
  });
  let plannedKwh = 0;
  let cost: number | undefined = 0;
  for (const slot of plan.slots) {
    const kwh = gridKwh(slot, input.chargeKw);
    plannedKwh += kwh;
    cost = slot.price === undefined || cost === undefined ? undefined : cost + slot.price * kwh;
  }
  plannedKwh = Math.min(plannedKwh, requiredKwh);
  return {
    ...plan,
    requiredKwh: round(requiredKwh),
    plannedKwh: round(plannedKwh),
    cost: cost === undefined ? undefined : round(cost),
  };
}

function gridKwh(slot: PlannedSlot, chargeKw: number): number {
  return ((slot.end - slot.start) / HOUR_MS) * chargeKw;
}

const round = (value: number): number => Math.round(value * 1000) / 1000;
