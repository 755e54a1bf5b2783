import { join } from "node:path";
import { type Battery, PLAN_SOC_STEP_KWH } from "../src/optimiser/index.js";
import { type SlotClock, slotClocks, TIME_ZONE } from "./planner-year/clock.js";
import { loadYear, PV_KWP, SOURCES, UK_YIELD_KWH_PER_KWP, type Year } from "./planner-year/data.js";
import { type MpcSettings, mpc } from "./planner-year/mpc.js";
import { type OptimiseRuleSettings, optimiseRule } from "./planner-year/optimise-rule.js";
import { rulesExample } from "./planner-year/rules-example.js";
import { ecoOnly, fixedTimer, perfectForesight, TIMER } from "./planner-year/simple-policies.js";
import { type Outcome, simulate, withoutBattery } from "./planner-year/simulate.js";

/**
 * 2023 half-hour by half-hour for a house like the demo's, under the policies listed; see
 * docs/optimiser.md for the assumptions, which the output repeats.
 */

const BATTERY: Battery = {
  capacityKwh: 9.5,
  chargeKw: 3,
  dischargeKw: 3,
  chargeEfficiency: 0.95,
  dischargeEfficiency: 0.95,
  reservePercent: 4,
  exportLimitKw: 5,
};
const INITIAL_SOC_KWH = 0.5 * BATTERY.capacityKwh;
/** GBP per mode written: small, so the inverter is not rewritten every slot for a fraction of a penny. */
const CHANGE_COST = 0.002;
const MPC = { horizon: 96, changeCost: CHANGE_COST, socStepKwh: PLAN_SOC_STEP_KWH, forecastPrices: true } as const;
const PERFECT_STEP_KWH = 0.05;

const ROOT = join(import.meta.dirname, "..");

interface Row {
  readonly name: string;
  readonly outcome: Outcome;
  readonly solve?: string;
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export async function plannerYearBenchmark(): Promise<void> {
  const year = loadYear(ROOT);
  const clocks = slotClocks();
  const total = (series: readonly number[]) => series.reduce((sum, value) => sum + value, 0);
  console.log("planner-year: 2023 half-hour by half-hour (17,520 slots)");
  console.log("data (README of test/fixtures/planner-year):");
  for (const source of SOURCES) console.log(`  - ${source}`);
  console.log("assumptions:");
  const lines = [
    `battery ${BATTERY.capacityKwh} kWh usable, ${BATTERY.chargeKw} kW charge / ${BATTERY.dischargeKw} kW discharge (AC side), charge efficiency ${BATTERY.chargeEfficiency}, discharge efficiency ${BATTERY.dischargeEfficiency} (round trip ${(BATTERY.chargeEfficiency * BATTERY.dischargeEfficiency).toFixed(3)}), reserve ${BATTERY.reservePercent}%, starts at 50% in eco`,
    `export limit ${BATTERY.exportLimitKw} kW (more is curtailed); no import limit; inverter and house losses other than the battery's not modelled`,
    `load: LCL MAC000060 2013 placed on 2023 by day of year and UTC half-hour, ${total(year.load).toFixed(0)} kWh/year`,
    `solar: Ausgrid customer 12 shifted half a year (its day n from 1 July 2011 is day n of 2023), AEST clock kept as UK GMT clock, scaled x${year.pvFactor.toFixed(3)} (${PV_KWP} kWp / 1.04 kWp x ${UK_YIELD_KWH_PER_KWP} kWh/kWp UK yield / ${year.sydneyYieldKwhPerKwp.toFixed(0)} kWh/kWp Sydney yield): ${total(year.solar).toFixed(0)} kWh/year`,
    "prices: Agile import J and Agile Outgoing C as published, pence to GBP; standing charge excluded; energy left in the battery at the year's end not credited",
    `modes: eco (self-consumption), hold (pause discharge: solar still charges), charge (timed charge to a target SoC at full power), export (timed export down to a target SoC); mode change cost ${CHANGE_COST} GBP in the optimiser; "mode changes" counts slots whose mode differs from the one before`,
    `3 fixed timer: timed charge to 100% ${TIMER.label} every night, eco otherwise`,
    "4 rules example: config/rules.example.yaml with its Agile import block (fallback 0.085/0.27 where unpublished) and Outgoing export; overnight-top-up, evening-export and cheap-grid emulated with src/rules/planners/window-planner.ts planWindow, re-planned every half-hour from what is published; car, alert, cron rules left out",
    `5 MPC: re-plans every half-hour over ${MPC.horizon} slots; Agile next-day prices (to 23:00 UK time) known from 16:00 UK time, beyond them a forecast from published prices only; load and solar forecast from past data (src/optimiser/forecast.ts); no data before 1 Jan 2023, so the first days forecast from little; SoC grid ${MPC.socStepKwh} kWh; the first slot of each plan is what the inverter does (src/optimiser/plan-ahead.ts)`,
    "5b: the same with published prices only (as the daemon planned before it used its price history)",
    "5c: the daemon's optimise rule with its own planner (src/rules/planners/optimise-windows.ts), published prices only; a window, once open, holds its mode and target to its end, as the rules engine kept it before re-planning",
    "5d: the same rule as the engine now runs it: every half-hour the open window follows the new plan (src/rules/planners/window-replan.ts: same mode goes on with the new end, a target moved by 2 points or more within reach is written; another mode ends it)",
    "5e: 5d with prices beyond the published ones forecast from the last 14 days of published prices (the daemon's price history), as the MPC's row 5",
    `6 perfect foresight: the same dynamic program over the whole year with the real data, SoC grid ${PERFECT_STEP_KWH} kWh`,
  ];
  for (const line of lines) console.log(`  - ${line}`);

  const rows: Row[] = [];
  rows.push({ name: "1 no battery", outcome: withoutBattery(year, BATTERY) });
  rows.push({ name: "2 eco only", outcome: simulate(year, BATTERY, INITIAL_SOC_KWH, ecoOnly) });
  rows.push({ name: "3 fixed timer", outcome: simulate(year, BATTERY, INITIAL_SOC_KWH, fixedTimer(clocks)) });
  rows.push({
    name: "4 rules example",
    outcome: simulate(year, BATTERY, INITIAL_SOC_KWH, rulesExample(year, clocks, BATTERY.capacityKwh)),
  });
  rows.push(mpcRow("5 optimiser (MPC)", year, clocks, MPC));
  rows.push(
    mpcRow("5b optimiser, published prices only", year, clocks, {
      ...MPC,
      forecastPrices: false,
    }),
  );
  rows.push(
    ruleRow("5c the optimise rule as the engine ran it (a window held to its end)", year, clocks, {
      changeCost: CHANGE_COST,
      replan: false,
      priceForecast: false,
    }),
  );
  rows.push(
    ruleRow("5d the optimise rule re-planning every half-hour", year, clocks, {
      changeCost: CHANGE_COST,
      replan: true,
      priceForecast: false,
    }),
  );
  rows.push(
    ruleRow("5e the optimise rule re-planning, prices forecast from its price history", year, clocks, {
      changeCost: CHANGE_COST,
      replan: true,
      priceForecast: true,
    }),
  );
  const perfect = perfectForesight(year, BATTERY, INITIAL_SOC_KWH, CHANGE_COST, PERFECT_STEP_KWH);
  rows.push({
    name: "6 perfect foresight",
    outcome: simulate(year, BATTERY, INITIAL_SOC_KWH, perfect.decide),
    solve: `one solve of the year: ${(perfect.solveMs / 1000).toFixed(1)} s`,
  });

  const none = rows[0]?.outcome.cost ?? 0;
  const best = rows[rows.length - 1]?.outcome.cost ?? 0;
  console.log("");
  console.log(
    "| policy | annual cost (GBP) | share of perfect-foresight saving | battery cycles | mode changes | import kWh | export kWh | solve time |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---|");
  for (const row of rows) {
    const share = none - best > 0 ? ((none - row.outcome.cost) / (none - best)) * 100 : 0;
    console.log(
      `| ${row.name} | ${row.outcome.cost.toFixed(2)} | ${share.toFixed(1)}% | ${row.outcome.cycles.toFixed(1)} | ${row.outcome.modeChanges} | ${row.outcome.importKwh.toFixed(0)} | ${row.outcome.exportKwh.toFixed(0)} | ${row.solve ?? ""} |`,
    );
  }
  console.log(`(time zone ${TIME_ZONE}; the bar: MPC at least 90% of the perfect-foresight saving, aim 95%)`);
}

/** Policy 5 run over the year: its outcome and the solve time of each re-plan. */
function mpcRow(name: string, year: Year, clocks: readonly SlotClock[], settings: MpcSettings): Row {
  return solveRow(name, () => {
    const run = mpc(year, clocks, BATTERY, settings);
    return { outcome: simulate(year, BATTERY, INITIAL_SOC_KWH, run.decide), solveMs: run.solveMs };
  });
}

/** The optimise rule run over the year, with the windows it wrote again by re-planning. */
function ruleRow(name: string, year: Year, clocks: readonly SlotClock[], settings: OptimiseRuleSettings): Row {
  let rewrites = 0;
  const row = solveRow(name, () => {
    const rule = optimiseRule(year, clocks, BATTERY, settings);
    const outcome = simulate(year, BATTERY, INITIAL_SOC_KWH, rule.decide);
    rewrites = rule.rewrites();
    return { outcome, solveMs: rule.solveMs };
  });
  return settings.replan ? { ...row, solve: `${row.solve}; ${rewrites} windows written again` } : row;
}

/** A policy that solves as it goes: its outcome and the solve time of each re-plan. */
function solveRow(name: string, run: () => { outcome: Outcome; solveMs: readonly number[] }): Row {
  const started = performance.now();
  const { outcome, solveMs } = run();
  const seconds = (performance.now() - started) / 1000;
  const times = [...solveMs].sort((a, b) => a - b);
  const worst = times[times.length - 1] ?? 0;
  const worstAt = solveMs.indexOf(worst);
  return {
    name,
    outcome,
    solve: `median ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms, worst ${worst.toFixed(1)} ms (re-plan ${worstAt + 1} of ${times.length}; ${times.filter((ms) => ms >= 50).length} over 50 ms; ${seconds.toFixed(0)} s with forecasts)`,
  };
}
