import { join } from "node:path";
import type { Battery } from "../src/optimiser/index.js";
import { BENCH_BATTERIES, type BenchBattery } from "./planner-year/batteries.js";
import {
  batteryAlone,
  type CarOutcome,
  houseForecasts,
  inTimer,
  jointPlan,
  simulateWithCar,
  TIMER_WINDOW,
} from "./planner-year/car-policies.js";
import { CAR, CAR_PROFILE_TEXT, carYear } from "./planner-year/car-profile.js";
import { type SlotClock, slotClocks } from "./planner-year/clock.js";
import { loadYear } from "./planner-year/data.js";

/**
 * The car in the optimiser's plan, on the planner-year bench's 2023 house (its data and battery;
 * see docs/optimiser.md): a commuter's car charged on arrival, by an overnight timer, and in one
 * plan with the battery under a site import limit.
 */

/** The planner-year bench's 9.5 kWh battery (bench/planner-year/batteries.ts). */
const BATTERY: Battery = (BENCH_BATTERIES[0] as BenchBattery).battery;
const INITIAL_SOC_KWH = 0.5 * BATTERY.capacityKwh;
const CHANGE_COST = 0.002;
/** Stricter than a 60 A supply fuse (60 A x 230 V = 13.8 kW), so that it binds: the car and the battery together take 10 kW. */
const IMPORT_LIMIT_KW = 10;

/** kW kept free for the house above its forecast half-hour mean (optimise's house_margin_kw; the rule's default is 1). */
const HOUSE_MARGINS_KW = [0, 1, 2] as const;

const ROOT = join(import.meta.dirname, "..");

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export async function carBenchmark(): Promise<void> {
  const started = performance.now();
  const year = loadYear(ROOT);
  const clocks = slotClocks();
  const car = carYear(clocks);
  console.log("car: the planner-year house (2023, 17,520 half-hours) with a commuter's car, three car policies");
  console.log("car profile (stated, not measured):");
  for (const line of CAR_PROFILE_TEXT) console.log(`  - ${line}`);
  console.log(
    `  - site import limit ${IMPORT_LIMIT_KW} kW shared by the house, the battery's grid charging and the car (a 60 A fuse is 13.8 kW; 10 kW makes it bind: car ${CAR.chargerKw} kW + battery ${BATTERY.chargeKw} kW)`,
  );
  console.log(
    "  - battery as planner-year's (9.5 kWh, 3 kW, 0.95/0.95, reserve 4%, export limit 5 kW); in every policy it runs the daemon's re-plan every half-hour (published prices only, the house's forecasts from past data, SoC grid 0.1 kWh)",
  );
  console.log(
    "  - a half-hour's peak import: the house's real net load plus the full power of the car's charger and of the battery's timed charge when they draw; over the limit when above it",
  );
  console.log(
    `  - c: planWithCar every half-hour with what the car still needs and its deadline, the house counted at its forecast plus a margin of ${HOUSE_MARGINS_KW.join(", ")} kW; a, b: the battery's plan does not know of the car, which charges at full power from arrival (a) or within ${TIMER_WINDOW.label} (b)`,
  );
  const forecasts = houseForecasts(year);
  const context = { year, clocks, battery: BATTERY, changeCost: CHANGE_COST, forecasts };
  const run = (policy: ReturnType<typeof jointPlan>) =>
    simulateWithCar(year, BATTERY, INITIAL_SOC_KWH, car, IMPORT_LIMIT_KW, policy);
  const noCar = { ...car, arrives: car.arrives.map(() => 0) };
  const rows: { name: string; outcome: CarOutcome }[] = [
    {
      name: "house alone (no car), for reference",
      outcome: simulateWithCar(
        year,
        BATTERY,
        INITIAL_SOC_KWH,
        noCar,
        IMPORT_LIMIT_KW,
        batteryAlone(context, () => false),
      ),
    },
    { name: "a on arrival at full power", outcome: run(batteryAlone(context, () => true)) },
    {
      name: `b overnight timer ${TIMER_WINDOW.label}`,
      outcome: run(batteryAlone(context, (t) => inTimer(clocks[t] as SlotClock))),
    },
    ...HOUSE_MARGINS_KW.map((margin) => ({
      name: `c the car in the optimiser's plan (limit ${IMPORT_LIMIT_KW} kW, house margin ${margin} kW)`,
      outcome: run(jointPlan(context, car, IMPORT_LIMIT_KW, margin)),
    })),
  ];
  const reference = rows[0]?.outcome.cost ?? 0;
  console.log("");
  console.log(
    "| policy | annual cost (GBP) | car's share (GBP) | car kWh | short kWh | slots over the limit | highest peak kW | import kWh | export kWh | battery cycles | re-plan |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const { name, outcome } of rows) {
    const times = [...outcome.solveMs].sort((a, b) => a - b);
    console.log(
      `| ${name} | ${outcome.cost.toFixed(2)} | ${(outcome.cost - reference).toFixed(2)} | ${outcome.carKwh.toFixed(0)} | ${outcome.shortKwh.toFixed(1)} | ${outcome.overLimit} | ${outcome.peakKw.toFixed(1)} | ${outcome.importKwh.toFixed(0)} | ${outcome.exportKwh.toFixed(0)} | ${outcome.cycles.toFixed(1)} | median ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms |`,
    );
  }
  const [, arrival, timer, ...joints] = rows.map((row) => row.outcome);
  joints.forEach((joint, index) => {
    if (!arrival || !timer) return;
    console.log(
      `joint plan, house margin ${HOUSE_MARGINS_KW[index]} kW: saves ${(arrival.cost - joint.cost).toFixed(2)} GBP a year against charging on arrival, ${(timer.cost - joint.cost).toFixed(2)} GBP against the timer; half-hours over the ${IMPORT_LIMIT_KW} kW limit: ${joint.overLimit}`,
    );
  });
  console.log(`(car bench: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}
