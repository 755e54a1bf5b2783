import { join } from "node:path";
import { exactByBlocks } from "../src/backtest/exact-blocks.js";
import { exactDecide } from "../src/backtest/exact-policy.js";
import { type MpcSettings, mpc } from "../src/backtest/mpc.js";
import { type OptimiseRuleSettings, optimiseRule } from "../src/backtest/optimise-rule.js";
import { CHANGE_COST, EXACT_BLOCK_SLOTS, OPTIMISER_MPC } from "../src/backtest/policy-settings.js";
import type { Battery } from "../src/optimiser/index.js";
import { type BenchBattery, selectBatteries } from "./planner-year/batteries.js";
import { type SlotClock, slotClocks, TIME_ZONE } from "./planner-year/clock.js";
import { loadYear, PV_KWP, SOURCES, UK_YIELD_KWH_PER_KWP, type Year } from "./planner-year/data.js";
import { rulesExample } from "./planner-year/rules-example.js";
import { ecoOnly, fixedTimer, perfectForesight, TIMER } from "./planner-year/simple-policies.js";
import { type Outcome, SLOT_HOURS, simulate, withoutBattery } from "./planner-year/simulate.js";
import {
  calibrate,
  learnedSolar,
  modelledWeather,
  persistenceRmse,
  type SolarForecaster,
  WEATHER_SKILL_VS_PERSISTENCE,
  WEATHER_SOURCE,
} from "./planner-year/solar-forecasts.js";

/**
 * 2023 half-hour by half-hour for a house like the demo's, under each policy and for each of three
 * batteries; see docs/optimiser.md for the assumptions, which the output repeats.
 * `npm run bench -- planner-year` runs every battery, `planner-year:13.5` one of them.
 */

const MPC = OPTIMISER_MPC;
const PERFECT_STEP_KWH = 0.05;
const WEATHER_SEED = 2023;

const ROOT = join(import.meta.dirname, "..");

interface Row {
  readonly name: string;
  readonly outcome: Outcome;
  readonly solve?: string;
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export async function plannerYearBenchmark(options: readonly string[] = []): Promise<void> {
  const batteries = selectBatteries(options);
  const started = performance.now();
  const year = loadYear(ROOT);
  const clocks = slotClocks();
  const weather = calibrate(year.solar, WEATHER_SKILL_VS_PERSISTENCE, WEATHER_SEED);
  printAssumptions(year, weather.dayAheadLogVariance);
  const forecasts = { learned: learnedSolar(year), weather: modelledWeather(year, weather) };
  const bars: string[] = [];
  for (const entry of batteries) bars.push(...(await runBattery(year, clocks, entry, forecasts)));
  console.log("");
  console.log("the issue's bars (information, not a test):");
  for (const bar of bars) console.log(`  - ${bar}`);
  console.log(`planner-year: ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
}

function printAssumptions(year: Year, dayAheadLogVariance: number): void {
  const total = (series: readonly number[]) => series.reduce((sum, value) => sum + value, 0);
  const dayAheadRmse = Math.sqrt(Math.exp(dayAheadLogVariance) - 1);
  console.log("planner-year: 2023 half-hour by half-hour (17,520 slots), three batteries");
  console.log("data (README of test/fixtures/planner-year):");
  for (const source of SOURCES) console.log(`  - ${source}`);
  console.log("assumptions:");
  const lines = [
    "batteries: 9.5 kWh / 3 kW, 5.2 kWh / 2.6 kW and 13.5 kWh / 5 kW usable, charge = discharge power (AC side); each: charge and discharge efficiency 0.95 (round trip 0.9025), reserve 4%, starts at 50% in eco",
    "export limit 5 kW (more is curtailed); no import limit; inverter and house losses other than the battery's not modelled",
    `load: LCL MAC000060 2013 placed on 2023 by day of year and UTC half-hour, ${total(year.load).toFixed(0)} kWh/year`,
    `solar: Ausgrid customer 12 shifted half a year (its day n from 1 July 2011 is day n of 2023), AEST clock kept as UK GMT clock, scaled x${year.pvFactor.toFixed(3)} (${PV_KWP} kWp / 1.04 kWp x ${UK_YIELD_KWH_PER_KWP} kWh/kWp UK yield / ${year.sydneyYieldKwhPerKwp.toFixed(0)} kWh/kWp Sydney yield): ${total(year.solar).toFixed(0)} kWh/year`,
    "prices: Agile import J and Agile Outgoing C as published, pence to GBP; standing charge excluded; energy left in the battery at the year's end not credited",
    `modes: eco (self-consumption), hold (pause discharge: solar still charges), charge (timed charge to a target SoC at full power), export (timed export down to a target SoC); mode change cost ${CHANGE_COST} GBP in the optimiser; "mode changes" counts slots whose mode differs from the one before`,
    `solar forecasts: "learned" is the profile of the past 14 days (src/optimiser/forecast.ts forecastSolar); "modelled weather" is MODELLED, not a real provider's forecast: the real solar times a seeded (seed ${WEATHER_SEED}) lognormal error of mean 1, one per day and lead plus one per half-hour, sized so that the day-ahead half-hourly RMSE is ${WEATHER_SKILL_VS_PERSISTENCE} x persistence's (${(WEATHER_SKILL_VS_PERSISTENCE * persistenceRmse(year.solar)).toFixed(3)} kWh, a relative RMS error of ${(dayAheadRmse * 100).toFixed(0)}% per half-hour) after ${WEATHER_SOURCE}; the same day's error variance 0.5 x the day-ahead one, two days ahead 1.3 x (modelled)`,
    `3 fixed timer: timed charge to 100% ${TIMER.label} every night, eco otherwise`,
    "4 rules example: config/rules.example.yaml with its Agile import block (fallback 0.085/0.27 where unpublished) and Outgoing export; overnight-top-up, evening-export and cheap-grid emulated with src/rules/planners/window-planner.ts planWindow, re-planned every half-hour from what is published; car, alert, cron rules left out",
    `5 MPC: re-plans every half-hour over ${MPC.horizon} slots; Agile next-day prices (to 23:00 UK time) known from 16:00 UK time, beyond them a forecast from published prices only; load forecast from past data (src/optimiser/forecast.ts), solar from the forecast named; SoC grid ${MPC.socStepKwh} kWh; the first slot of each plan is what the inverter does (src/optimiser/plan-ahead.ts)`,
    "6 the daemon's optimise rule with its own planner (src/rules/planners/optimise-windows.ts), published prices only; a window, once open, holds its mode and target to its end (as the engine ran it before re-planning)",
    "6r the rule as the engine runs it now: every half-hour the open window follows the new plan (src/rules/planners/window-replan.ts: the same mode goes on with the new end, a target moved by 2 points or more within reach is written; another mode ends it), and prices beyond the published ones are forecast from the last 14 days of published prices (the daemon's price history), as the MPC's; the rule is told the site's export limit (its export_limit_kw); learned solar",
    "6w: 6r with the modelled weather forecast",
    `7 perfect foresight: the dynamic program over the whole year with the real data and the modes' action set, SoC grid ${PERFECT_STEP_KWH} kWh`,
    "8 exact optimum (the 100% line): a mixed-integer program (HiGHS) with continuous charge, discharge, import, export and curtailment per half-hour under the meter's rules (no import with export, no charge with discharge, curtailment only at the export limit), perfect information, solved in week blocks chained with one week's look-ahead, and proven by a Lagrangian lower bound (the gap printed); its schedule is then run through the meter as modes and targets",
  ];
  for (const line of lines) console.log(`  - ${line}`);
}

async function runBattery(
  year: Year,
  clocks: readonly SlotClock[],
  entry: BenchBattery,
  forecasts: { learned: SolarForecaster; weather: SolarForecaster },
): Promise<string[]> {
  const { battery } = entry;
  const initialSocKwh = 0.5 * battery.capacityKwh;
  const started = performance.now();
  const rows: Row[] = [];
  rows.push({ name: "1 no battery", outcome: withoutBattery(year, battery) });
  rows.push({ name: "2 eco only", outcome: simulate(year, battery, initialSocKwh, ecoOnly) });
  rows.push({ name: "3 fixed timer", outcome: simulate(year, battery, initialSocKwh, fixedTimer(clocks)) });
  rows.push({
    name: "4 rules example",
    outcome: simulate(year, battery, initialSocKwh, rulesExample(year, clocks, battery.capacityKwh)),
  });
  rows.push(mpcRow("5 MPC, learned solar", year, clocks, battery, MPC, forecasts.learned));
  rows.push(mpcRow("5w MPC, modelled weather", year, clocks, battery, MPC, forecasts.weather));
  const ruleRow = (name: string, settings: Omit<OptimiseRuleSettings, "changeCost">): Row =>
    solveRow(name, () => {
      const rule = optimiseRule(year, clocks, battery, { changeCost: CHANGE_COST, ...settings });
      const outcome = simulate(year, battery, initialSocKwh, rule.decide);
      const replans = [...rule.replanMs].sort((a, b) => a - b);
      const whole = `whole re-plan with forecasts median ${quantile(replans, 0.5).toFixed(1)} ms, p99 ${quantile(replans, 0.99).toFixed(1)} ms; ${rule.rewrites()} windows written again`;
      return { outcome, solveMs: rule.solveMs, note: whole };
    });
  rows.push(
    ruleRow("6 the optimise rule, a window held to its end, learned solar", {
      replan: false,
      priceForecast: false,
      solar: forecasts.learned,
    }),
  );
  rows.push(
    ruleRow("6r the optimise rule re-planning, price forecast, learned solar", {
      replan: true,
      priceForecast: true,
      exportLimit: true,
      solar: forecasts.learned,
    }),
  );
  rows.push(
    ruleRow("6w the optimise rule re-planning, price forecast, modelled weather", {
      replan: true,
      priceForecast: true,
      exportLimit: true,
      solar: forecasts.weather,
    }),
  );
  const perfect = perfectForesight(year, battery, initialSocKwh, CHANGE_COST, PERFECT_STEP_KWH);
  rows.push({
    name: "7 perfect foresight (DP)",
    outcome: simulate(year, battery, initialSocKwh, perfect.decide),
    solve: `one solve of the year: ${(perfect.solveMs / 1000).toFixed(1)} s`,
  });
  const exact = await exactByBlocks(
    {
      importPrices: year.importPrice,
      exportPrices: year.exportPrice,
      load: year.load,
      solar: year.solar,
      battery,
      initialSocKwh,
      slotHours: SLOT_HOURS,
    },
    { curtail: "at-limit" },
    EXACT_BLOCK_SLOTS,
  );
  const metered = simulate(year, battery, initialSocKwh, exactDecide(year, battery, exact.slots));
  rows.push({
    name: "8 exact optimum (MILP)",
    outcome: { ...metered, cost: exact.cost },
    solve: `${(exact.solveMs / 1000).toFixed(0)} s: ${exact.blocks} week blocks, ${exact.binarySlots} binary half-hours over the chained solves (each week solved twice: itself and look-ahead); proven optimum between ${exact.lowerBound?.toFixed(2)} and ${exact.cost.toFixed(2)} (gap ${exact.gap?.toFixed(3)}); LP relaxation ${exact.relaxedCost.toFixed(2)}; its schedule run through the meter ${metered.cost.toFixed(2)}`,
  });

  const none = rows[0]?.outcome.cost ?? 0;
  const share = (cost: number) => (none - exact.cost > 0 ? ((none - cost) / (none - exact.cost)) * 100 : 0);
  console.log("");
  console.log(
    `### ${battery.capacityKwh} kWh / ${battery.chargeKw} kW (efficiencies ${battery.chargeEfficiency}/${battery.dischargeEfficiency}, reserve ${battery.reservePercent}%, export limit ${battery.exportLimitKw} kW)`,
  );
  console.log("");
  console.log(
    "| policy | annual cost (GBP) | share of the exact optimum's saving | battery cycles | mode changes | import kWh | export kWh | solve time |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---|");
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.outcome.cost.toFixed(2)} | ${share(row.outcome.cost).toFixed(1)}% | ${row.outcome.cycles.toFixed(1)} | ${row.outcome.modeChanges} | ${row.outcome.importKwh.toFixed(0)} | ${row.outcome.exportKwh.toFixed(0)} | ${row.solve ?? ""} |`,
    );
  }
  console.log(`(time zone ${TIME_ZONE}; ${((performance.now() - started) / 1000).toFixed(0)} s for this battery)`);

  const shareOf = (name: string) => share(rows.find((row) => row.name === name)?.outcome.cost ?? none);
  const bar = (what: string, value: number, needed: number) =>
    `${battery.capacityKwh} kWh: ${what} ${value.toFixed(1)}% of the exact saving, bar ${needed}%: ${value >= needed ? "pass" : "FAIL"}`;
  const out = [
    bar(
      "the optimise rule, modelled weather",
      shareOf("6w the optimise rule re-planning, price forecast, modelled weather"),
      entry.weatherBar,
    ),
  ];
  if (entry.learnedBar !== undefined) {
    out.push(
      bar(
        "the optimise rule, learned solar",
        shareOf("6r the optimise rule re-planning, price forecast, learned solar"),
        entry.learnedBar,
      ),
    );
  }
  return out;
}

/** The MPC run over the year: its outcome and the solve time of each re-plan. */
function mpcRow(
  name: string,
  year: Year,
  clocks: readonly SlotClock[],
  battery: Battery,
  settings: MpcSettings,
  solar: SolarForecaster,
): Row {
  return solveRow(name, () => {
    const run = mpc(year, clocks, battery, settings, solar);
    return { outcome: simulate(year, battery, 0.5 * battery.capacityKwh, run.decide), solveMs: run.solveMs };
  });
}

/** A policy that solves as it goes: its outcome and the solve time of each re-plan. */
function solveRow(name: string, run: () => { outcome: Outcome; solveMs: readonly number[]; note?: string }): Row {
  const started = performance.now();
  const { outcome, solveMs, note } = run();
  const seconds = (performance.now() - started) / 1000;
  const times = [...solveMs].sort((a, b) => a - b);
  const worst = times[times.length - 1] ?? 0;
  return {
    name,
    outcome,
    solve: `median ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms, worst ${worst.toFixed(1)} ms (${times.filter((ms) => ms >= 50).length} of ${times.length} over 50 ms; ${seconds.toFixed(0)} s with forecasts)${note ? `; ${note}` : ""}`,
  };
}
