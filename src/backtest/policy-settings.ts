import { PLAN_SOC_STEP_KWH } from "../optimiser/index.js";
import type { MpcSettings } from "./mpc.js";

/** GBP per mode written: small, so the inverter is not rewritten every slot for a fraction of a penny. */
export const CHANGE_COST = 0.002;

/** The optimiser as the bench and the backtest run it: 48 hours ahead, forecasting prices past the published ones. */
export const OPTIMISER_MPC: MpcSettings = {
  horizon: 96,
  changeCost: CHANGE_COST,
  socStepKwh: PLAN_SOC_STEP_KWH,
  forecastPrices: true,
};

/** A week: the blocks of the bench's exact optimum (exact-blocks.ts), whose Lagrangian bound proves it to pennies. */
export const EXACT_BLOCK_SLOTS = 336;

/**
 * A day: the blocks of the backtest's exact optimum, each solved with the next day as its
 * look-ahead, which the backtest does not prove. On the planner-year the chain costs £-113.920
 * against week blocks' £-113.930, in 14 s rather than 49; on the demo house, whose fixed export
 * price above its cheap import leaves many schedules costing the same, a week's program did not
 * finish in 60 s and a day's takes 1 to 3 s.
 */
export const BACKTEST_EXACT_BLOCK_SLOTS = 48;

/**
 * Wall-clock seconds one block's program may take in the backtest before the exact optimum is
 * left out (a day of the planner-year takes a few hundredths of a second, of the demo house up to 4 s).
 */
export const EXACT_BLOCK_SECONDS = 60;
