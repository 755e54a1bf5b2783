import type { Battery } from "../optimiser/index.js";
import { periodRows } from "./periods.js";
import { CHANGE_COST, OPTIMISER_MPC } from "./policy-settings.js";
import type { PolicyReplay, RulesPolicy } from "./replay.js";
import type { ReplayJob } from "./replay-messages.js";
import { replayAll } from "./replay-pool.js";
import {
  type BacktestPeriodKind,
  type BacktestPolicy,
  type BacktestResult,
  type BacktestRow,
  type BacktestRule,
  backtestResultSchema,
} from "./result.js";
import { PUBLISHED_AT_MINUTES } from "./slot-clocks.js";
import type { MeteredHalfHours } from "./store-input.js";

/** One tariff's prices on the backtest's half-hours. */
export interface PricedTariff {
  readonly name: string;
  readonly source: string;
  readonly importPrice: readonly number[];
  readonly exportPrice: readonly number[];
  /** Half-hours without a price of their own, given the nearest one. */
  readonly filled: number;
}

export interface BacktestInput {
  readonly from: string;
  readonly to: string;
  readonly timeZone: string;
  readonly by: BacktestPeriodKind;
  readonly house: MeteredHalfHours;
  readonly tariffs: readonly PricedTariff[];
  readonly battery: Battery;
  /** Where the capacity came from, for the assumptions. */
  readonly capacitySource: string;
  readonly initialSocPercent: number;
  readonly policies: readonly BacktestPolicy[];
  /** The rules file's optimise rule; undefined: the rules policy is left out. */
  readonly rules?: RulesPolicy;
  /** Why a policy asked for is left out, for the assumptions. */
  readonly notes?: readonly string[];
  readonly onProgress?: (tariff: string, policy: BacktestPolicy, done: number) => void;
}

/** Replays the house's half-hours under each policy and tariff and sums them per period. */
export async function runBacktest(input: BacktestInput): Promise<BacktestResult> {
  const { house, battery, timeZone } = input;
  const jobs: ReplayJob[] = input.tariffs.flatMap((tariff) =>
    input.policies.map((policy) => ({
      policy,
      input: {
        series: {
          starts: house.starts,
          load: house.load,
          solar: house.solar,
          importPrice: [...tariff.importPrice],
          exportPrice: [...tariff.exportPrice],
          timeZone,
        },
        battery,
        initialSocKwh: (input.initialSocPercent / 100) * battery.capacityKwh,
        metered: { importKwh: house.importKwh, exportKwh: house.exportKwh },
        ...(input.rules ? { rules: input.rules } : {}),
      },
    })),
  );
  const tariffOf = (index: number) => input.tariffs[Math.floor(index / input.policies.length)] as PricedTariff;
  const outcomes = await replayAll(jobs, (index, done) =>
    input.onProgress?.(tariffOf(index).name, jobs[index]?.policy as BacktestPolicy, done),
  );
  const rows: BacktestRow[] = [];
  const seconds: Record<string, number> = {};
  const skipped = new Set<string>();
  const rules: BacktestRule[] = [];
  input.tariffs.forEach((tariff, t) => {
    const replays: PolicyReplay[] = [];
    for (const outcome of outcomes.slice(t * input.policies.length, (t + 1) * input.policies.length)) {
      if (!outcome) continue;
      if ("skipped" in outcome) skipped.add(`${tariff.name}: ${outcome.skipped}`);
      else {
        replays.push(outcome);
        for (const rule of outcome.rules?.rules ?? []) rules.push({ tariff: tariff.name, ...rule });
        for (const problem of outcome.rules?.problems.slice(0, 5) ?? [])
          skipped.add(`${tariff.name}: rules replay: ${problem}`);
        seconds[outcome.policy] = (seconds[outcome.policy] ?? 0) + outcome.seconds;
      }
    }
    rows.push(...periodRows(house.starts, timeZone, replays, tariff.name, input.by, input));
  });
  const notes = [...(input.notes ?? []), ...skipped];
  return backtestResultSchema.parse({
    from: input.from,
    to: input.to,
    timeZone,
    by: input.by,
    halfHours: house.starts.length,
    missingHalfHours: house.missing,
    battery,
    initialSocPercent: input.initialSocPercent,
    tariffs: input.tariffs.map((tariff) => ({ name: tariff.name, source: tariff.source })),
    assumptions: assumptions({ ...input, notes }),
    rows,
    ...(rules.length > 0 ? { rules } : {}),
    seconds,
  });
}

function assumptions(input: BacktestInput): string[] {
  const { battery, house } = input;
  const clock = `${String(Math.floor(PUBLISHED_AT_MINUTES / 60)).padStart(2, "0")}:00`;
  const lines = [
    `load and solar as the store metered them, half-hour by half-hour (${house.starts.length} half-hours${house.missing > 0 ? `, ${house.missing} missing from the store and replayed as no load and no solar` : ""})`,
    `battery: ${battery.capacityKwh} kWh (${input.capacitySource}), charge ${battery.chargeKw} kW, discharge ${battery.dischargeKw} kW, efficiencies ${battery.chargeEfficiency} in and ${battery.dischargeEfficiency} out, reserve ${battery.reservePercent}%, ${battery.exportLimitKw === undefined ? "no export limit" : `export limit ${battery.exportLimitKw} kW`}; every modelled policy starts at ${Math.round(input.initialSocPercent)}% SoC; energy left at the end not credited`,
    "costs: import less export at each half-hour's price, standing charges excluded; saved = the same tariff's no-battery cost less the policy's",
    "actual: what the meter read (the house's real battery, whatever ran it); no battery: solar serves the load, the rest is imported or exported",
    `rules: the whole rules file run by the daemon's rules engine on a replayed clock (every trigger, condition, priority and restore; dry run lifted), prices known from ${clock} for the next day, the house's forecast learned from the replayed history, the SoC from the battery model; what the rules write lands on a model of a GivEnergy hybrid's settings and presets (one with full-power-discharge-in-eco-mode), which says each half-hour's mode (timed charge to its limit, timed export, pause, Eco, reserve and power limits)`,
    `optimiser: the optimiser re-planning every half-hour over ${OPTIMISER_MPC.horizon} half-hours (src/optimiser/plan-ahead.ts); mode change cost ${CHANGE_COST}`,
    "exact optimum: the least cost any schedule could reach knowing everything ahead (a mixed-integer program solved day by day, each day with the next as its look-ahead): the ceiling",
  ];
  for (const tariff of input.tariffs)
    if (tariff.filled > 0)
      lines.push(`${tariff.name}: ${tariff.filled} half-hours without a published price given the nearest one`);
  return [...lines, ...(input.notes ?? [])];
}
