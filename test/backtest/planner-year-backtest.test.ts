import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BENCH_BATTERIES } from "../../bench/planner-year/batteries.js";
import { loadYear, type Year } from "../../bench/planner-year/data.js";
import { exactByBlocks } from "../../src/backtest/exact-blocks.js";
import { learnedSolar } from "../../src/backtest/learned-solar.js";
import { mpc } from "../../src/backtest/mpc.js";
import { optimiseRule } from "../../src/backtest/optimise-rule.js";
import { CHANGE_COST, EXACT_BLOCK_SLOTS, OPTIMISER_MPC } from "../../src/backtest/policy-settings.js";
import { type BacktestPolicy, backtestResultSchema } from "../../src/backtest/result.js";
import { ecoOnly, SLOT_HOURS, simulate, withoutBattery } from "../../src/backtest/simulate.js";
import { slotClocks } from "../../src/backtest/slot-clocks.js";
import { runBacktestCommand } from "../../src/commands/backtest.js";
import { VirtualClock } from "../../src/time/index.js";
import { capture } from "../helpers/capture.js";
import { BENCH_RULES, backtestHouse, writeYearToStore } from "../helpers/planner-year-store.js";

/*
 * The planner-year fixture's first two weeks imported into a real store (history points and published
 * prices, as the daemon keeps them) and backtested through the command: each policy's cost must be
 * the bench's own for the same half-hours, computed here with the bench's functions.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "e2m-backtest-year-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Two weeks: two of the bench's week blocks (the backtest solves them day by day), fast enough for the suite.
const JANUARY_SLOTS = 14 * 48;
const battery = (BENCH_BATTERIES.find((entry) => entry.key === "9.5") ?? BENCH_BATTERIES[0])?.battery;

function month(year: Year): Year {
  const cut = <T>(series: readonly T[]) => series.slice(0, JANUARY_SLOTS);
  return {
    ...year,
    starts: cut(year.starts),
    importPrice: cut(year.importPrice),
    exportPrice: cut(year.exportPrice),
    load: cut(year.load),
    solar: cut(year.solar),
  };
}

/** The bench's figures for the month: each policy's cost, import and export as the bench computes them. */
async function benchFigures(series: Year) {
  if (!battery) throw new Error("no 9.5 kWh battery in the bench");
  const initial = 0.5 * battery.capacityKwh;
  const clocks = slotClocks(series.starts, series.timeZone);
  const rule = optimiseRule(series, clocks, battery, {
    changeCost: CHANGE_COST,
    replan: true,
    priceForecast: true,
    exportLimit: true,
    solar: learnedSolar(series),
  });
  const exact = await exactByBlocks(
    {
      importPrices: series.importPrice,
      exportPrices: series.exportPrice,
      load: series.load,
      solar: series.solar,
      battery,
      initialSocKwh: initial,
      slotHours: SLOT_HOURS,
    },
    { curtail: "at-limit" },
    EXACT_BLOCK_SLOTS,
  );
  const figures: Partial<Record<BacktestPolicy, { cost: number; importKwh: number; exportKwh: number }>> = {
    "no-battery": withoutBattery(series, battery),
    "eco-only": simulate(series, battery, initial, ecoOnly),
    rules: simulate(series, battery, initial, rule.decide),
    optimiser: simulate(
      series,
      battery,
      initial,
      mpc(series, clocks, battery, OPTIMISER_MPC, learnedSolar(series)).decide,
    ),
    "exact-optimum": {
      cost: exact.cost,
      importKwh: exact.slots.reduce((sum, slot) => sum + slot.importKwh, 0),
      exportKwh: exact.slots.reduce((sum, slot) => sum + slot.exportKwh, 0),
    },
  };
  return figures;
}

describe("backtest of the planner-year fixture imported into a store", () => {
  const year = loadYear(ROOT);
  const january = month(year);
  const house = backtestHouse(join(dir, "house"), BENCH_RULES);
  beforeAll(() => {
    vi.stubEnv("ENERGY2MQTT_CONFIG", "");
    writeYearToStore(year, 0, JANUARY_SLOTS, house.store);
    return () => vi.unstubAllEnvs();
  });

  it("gives each policy the bench's cost, import and export within 0.5%", async () => {
    const out = capture();
    const err = capture();
    const code = await runBacktestCommand(
      { config: house.config, from: "2023-01-01", to: "2023-01-14", by: "range", json: true },
      out.stream,
      err.stream,
      new VirtualClock(Date.UTC(2026, 0, 20, 12)),
    );
    expect(code).toBe(0);
    // A month is long enough for progress: each policy's quarters, nothing else.
    for (const line of err.text().trim().split("\n")) expect(line).toMatch(/^backtest: configured [a-z-]+ \d+%$/);
    expect(err.text()).toContain("backtest: configured exact-optimum 100%");
    const result = backtestResultSchema.parse(JSON.parse(out.text()));
    expect(result.halfHours).toBe(JANUARY_SLOTS);
    expect(result.missingHalfHours).toBe(0);
    expect(result.battery).toEqual(battery);
    const bench = await benchFigures(january);
    const rows = result.rows.filter((row) => row.tariff === "configured");
    expect(rows.map((row) => row.policy)).toEqual([
      "actual",
      "no-battery",
      "eco-only",
      "rules",
      "optimiser",
      "exact-optimum",
    ]);
    const within = (actual: number, expected: number) =>
      expect(Math.abs(actual - expected)).toBeLessThanOrEqual(0.005 * Math.abs(expected));
    for (const [policy, figure] of Object.entries(bench)) {
      const row = rows.find((one) => one.policy === policy);
      within(row?.costGbp ?? Number.NaN, figure.cost);
      within(row?.importKwh ?? Number.NaN, figure.importKwh);
      within(row?.exportKwh ?? Number.NaN, figure.exportKwh);
    }
    // The meter read the house with no battery: "actual" is the no-battery house.
    const actual = rows.find((row) => row.policy === "actual");
    within(actual?.costGbp ?? Number.NaN, bench["no-battery"]?.cost ?? Number.NaN);
    const none = bench["no-battery"]?.cost ?? 0;
    for (const row of rows) expect(row.savedVsNoBatteryGbp).toBeCloseTo(none - row.costGbp, 6);
  }, 120_000);
});
