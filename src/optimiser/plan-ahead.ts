import type { Battery, Mode, Schedule } from "./model.js";
import { optimise } from "./optimise.js";
import { terminalValue } from "./terminal-value.js";

export interface PlanAheadInput {
  /** Per half-hour from now, as far as they are known (or forecast). */
  readonly importPrices: readonly number[];
  readonly exportPrices: readonly number[];
  /** The house's forecasts, kWh per half-hour from now: at least as long as the prices. */
  readonly load: readonly number[];
  readonly solar: readonly number[];
  readonly battery: Battery;
  readonly socKwh: number;
  readonly mode?: Mode;
  readonly changeCost: number;
  readonly socStepKwh?: number;
  /** Per half-hour, true where the battery may not charge from the grid (see noGridCharge). */
  readonly noGridCharge?: readonly boolean[];
}

/**
 * One re-plan of model-predictive control, as the daemon's optimise rule and the planner-year
 * benchmark both run it: the least-cost schedule over the prices given, with the energy left at the
 * end valued by terminalValue. The first slot is what to do now; the rest is the plan to show.
 */
export function planAhead(input: PlanAheadInput): Schedule {
  const slots = input.importPrices.length;
  return optimise({
    importPrices: [...input.importPrices],
    exportPrices: [...input.exportPrices],
    load: input.load.slice(0, slots),
    solar: input.solar.slice(0, slots),
    battery: input.battery,
    socKwh: input.socKwh,
    ...(input.mode ? { mode: input.mode } : {}),
    changeCost: input.changeCost,
    terminalValue: terminalValue(input.importPrices, input.exportPrices, input.battery),
    socStepKwh: input.socStepKwh ?? PLAN_SOC_STEP_KWH,
    ...(input.noGridCharge ? { noGridCharge: input.noGridCharge.slice(0, slots) } : {}),
  });
}

/** The SoC grid the benchmark measured the optimiser with. */
export const PLAN_SOC_STEP_KWH = 0.1;
