import type { Battery } from "../optimiser/index.js";
import { loadRules } from "../rules/file/load.js";
import { ExactTimeoutError } from "./exact.js";
import { exactByBlocks } from "./exact-blocks.js";
import { learnedSolar } from "./learned-solar.js";
import { mpc } from "./mpc.js";
import { BACKTEST_EXACT_BLOCK_SLOTS, EXACT_BLOCK_SECONDS, OPTIMISER_MPC } from "./policy-settings.js";
import type { BacktestPolicy } from "./result.js";
import type { RulesReplayReport } from "./rules-replay/report.js";
import { replayRules } from "./rules-replay/rules-replay.js";
import type { HalfHourSeries } from "./series.js";
import { type Decide, ecoOnly, SLOT_HOURS, simulateSteps, withoutBattery } from "./simulate.js";
import { slotClocks } from "./slot-clocks.js";

/** Each half-hour's grid flows under one policy, kWh, and what they cost, GBP. */
export interface SlotFlows {
  readonly importKwh: Float64Array;
  readonly exportKwh: Float64Array;
  readonly cost: Float64Array;
}

/** The rules file the rules policy replays through the rules engine (rules-replay/), by its path. */
export interface RulesPolicy {
  readonly file: string;
}

/** What one policy's replay needs: all of it plain data, so that a worker thread can run it. */
export interface ReplayInput {
  readonly series: HalfHourSeries;
  readonly battery: Battery;
  readonly initialSocKwh: number;
  /** What the meter read each half-hour, for the "actual" policy. */
  readonly metered?: { readonly importKwh: readonly number[]; readonly exportKwh: readonly number[] };
  readonly rules?: RulesPolicy;
}

export interface PolicyReplay {
  readonly policy: BacktestPolicy;
  readonly flows: SlotFlows;
  readonly seconds: number;
  /** The rules policy's account of each rule. */
  readonly rules?: RulesReplayReport;
}

/** A policy asked for and not replayed, and why (for the assumptions). */
export interface PolicySkipped {
  readonly policy: BacktestPolicy;
  readonly skipped: string;
}

/** How often progress is told, in half-hours: a week. */
const PROGRESS_SLOTS = 336;

/**
 * One policy over the series; undefined when it cannot run here (no meter readings, no optimise
 * rule). `onProgress` is told the share of its half-hours done, 0 to 1.
 */
export async function replayPolicy(
  policy: BacktestPolicy,
  input: ReplayInput,
  onProgress?: (done: number) => void,
): Promise<PolicyReplay | PolicySkipped | undefined> {
  const started = performance.now();
  try {
    const replayed = await replayOne(policy, input, onProgress);
    if (!replayed) return undefined;
    const seconds = (performance.now() - started) / 1000;
    return { policy, flows: replayed.flows, seconds, ...(replayed.rules ? { rules: replayed.rules } : {}) };
  } catch (error) {
    if (!(error instanceof ExactTimeoutError)) throw error;
    return {
      policy,
      skipped: `exact optimum: left out, ${error.message}: where many schedules cost the same (a fixed export price above the cheapest import price) the solver cannot prove the best one in time`,
    };
  }
}

function emptyFlows(slots: number): SlotFlows {
  return { importKwh: new Float64Array(slots), exportKwh: new Float64Array(slots), cost: new Float64Array(slots) };
}

function record(flows: SlotFlows, series: HalfHourSeries, t: number, importKwh: number, exportKwh: number): void {
  flows.importKwh[t] = importKwh;
  flows.exportKwh[t] = exportKwh;
  flows.cost[t] = importKwh * (series.importPrice[t] as number) - exportKwh * (series.exportPrice[t] as number);
}

async function replayOne(
  policy: BacktestPolicy,
  input: ReplayInput,
  onProgress?: (done: number) => void,
): Promise<{ flows: SlotFlows; rules?: RulesReplayReport } | undefined> {
  const { series, battery, initialSocKwh } = input;
  let rules: RulesReplayReport | undefined;
  const slots = series.starts.length;
  const flows = emptyFlows(slots);
  const told = (t: number) => {
    if (t % PROGRESS_SLOTS === 0) onProgress?.(t / slots);
  };
  const run = (decide: Decide) => {
    simulateSteps(
      series,
      battery,
      initialSocKwh,
      (t, soc, mode) => {
        told(t);
        return { action: decide(t, soc, mode), extraKwh: 0 };
      },
      ({ t, energy }) => record(flows, series, t, energy.importKwh, energy.exportKwh),
    );
  };
  switch (policy) {
    case "actual": {
      if (!input.metered) return undefined;
      for (let t = 0; t < slots; t++)
        record(flows, series, t, input.metered.importKwh[t] ?? 0, input.metered.exportKwh[t] ?? 0);
      break;
    }
    case "no-battery":
      withoutBattery(series, battery, (t, imported, exported) => record(flows, series, t, imported, exported));
      break;
    case "eco-only":
      run(ecoOnly);
      break;
    case "optimiser":
      run(mpc(series, slotClocks(series.starts, series.timeZone), battery, OPTIMISER_MPC, learnedSolar(series)).decide);
      break;
    case "rules": {
      if (!input.rules) return undefined;
      rules = await replayRules(
        { series, battery, initialSocKwh, rules: loadRules(input.rules.file).rules },
        (t, energy) => record(flows, series, t, energy.importKwh, energy.exportKwh),
        told,
      );
      break;
    }
    case "exact-optimum": {
      // Its first stage, the year's linear relaxation, tells nothing until done.
      told(0);
      const exact = await exactByBlocks(
        {
          importPrices: series.importPrice,
          exportPrices: series.exportPrice,
          load: series.load,
          solar: series.solar,
          battery,
          initialSocKwh,
          slotHours: SLOT_HOURS,
        },
        { curtail: "at-limit", timeLimitSeconds: EXACT_BLOCK_SECONDS, onBlock: (done) => told(done) },
        BACKTEST_EXACT_BLOCK_SLOTS,
        // The schedule is the chain's: the bound that proves how close it is is not shown.
        { lowerBound: false },
      );
      exact.slots.forEach((slot, t) => {
        record(flows, series, t, slot.importKwh, slot.exportKwh);
      });
      break;
    }
  }
  onProgress?.(1);
  return rules ? { flows, rules } : { flows };
}
