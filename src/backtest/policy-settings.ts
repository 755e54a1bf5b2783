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

/** A week: the blocks of the exact optimum's decomposition (exact-blocks.ts). */
export const EXACT_BLOCK_SLOTS = 336;

/**
 * Wall-clock seconds one block's program may take in the backtest before the exact optimum is
 * left out (a week of the planner-year takes about a second; the demo's fixed export price never ends).
 */
export const EXACT_BLOCK_SECONDS = 60;
