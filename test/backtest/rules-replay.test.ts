import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadYear } from "../../bench/planner-year/data.js";
import { backtestResultSchema } from "../../src/backtest/result.js";
import { replayRules } from "../../src/backtest/rules-replay/rules-replay.js";
import type { HalfHourSeries } from "../../src/backtest/series.js";
import { meteredHalfHours, pricesOn } from "../../src/backtest/store-input.js";
import { runBacktestCommand } from "../../src/commands/backtest.js";
import { DEMO_RULES_FILE } from "../../src/demo/rules.js";
import type { Battery, SlotResult } from "../../src/optimiser/index.js";
import { loadRules } from "../../src/rules/file/load.js";
import { openStore } from "../../src/store/index.js";
import { VirtualClock } from "../../src/time/index.js";
import { capture } from "../helpers/capture.js";
import { backtestHouse, writeYearToStore } from "../helpers/planner-year-store.js";

/*
 * The rules policy replays a whole rules file through the rules engine: three days of the
 * planner-year fixture (January 2023, London time is UTC) imported into a real store, and a file
 * with a cheapest-hours charge window, a peak export window under a SoC condition, a state-triggered
 * reserve, and a car rule the replay cannot carry out. Each day is checked against what the rules
 * say, worked out here from the prices and the replayed SoC; then the same through the command,
 * and the demo house's own rules file.
 */

const ROOT = join(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "e2m-backtest-rules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAYS = 3;
const SLOTS = DAYS * 48;
const CAPACITY = 9.5;
const CHARGE_TARGET = 60;
const EXPORT_IF_ABOVE = 80;
const EXPORT_FLOOR = 30;
const RESERVE_BELOW = 20;

const RULES = [
  "timezone: Europe/London",
  `battery: { capacity_kwh: ${CAPACITY}, charge_kw: 3, efficiency: 0.95 }`,
  "tariffs:",
  "  import: { type: agile, file: empty-agile.json }",
  "  export: { type: agile, file: empty-agile.json }",
  "rules:",
  "  - name: night-charge",
  "    priority: 10",
  '    when: { cheapest: { hours: 2, after: "00:00", before: "07:00" } }',
  "    do:",
  "      - preset: timed-charge",
  `        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: ${CHARGE_TARGET} }] }`,
  "  - name: peak-export",
  "    priority: 20",
  '    when: { most_expensive: { hours: 1, after: "16:00", before: "20:00" } }',
  `    if: { battery_soc_above: ${EXPORT_IF_ABOVE} }`,
  "    do:",
  "      - preset: timed-export",
  `        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: ${EXPORT_FLOOR} }] }`,
  "  - name: low-battery-reserve",
  `    when: { battery_soc_below: ${RESERVE_BELOW} }`,
  "    do:",
  `      - { setting: 71, value: ${RESERVE_BELOW} }`,
  "  - name: car-at-night",
  '    when: { cron: "0 22 * * *" }',
  "    do:",
  "      - charger: start-charge",
  '      - notify: { title: "Car charging now", body: "The car started charging for the night" }',
];

const battery: Battery = {
  capacityKwh: CAPACITY,
  chargeKw: 3,
  dischargeKw: 3,
  chargeEfficiency: 0.95,
  dischargeEfficiency: 0.95,
  reservePercent: 4,
};

/** The n consecutive half-hours of [first, last) of a day whose prices sum lowest (or highest), by slot index. */
function bestRun(prices: readonly number[], day: number, first: number, last: number, n: number, sign: 1 | -1) {
  let best = -1;
  let bestSum = Number.POSITIVE_INFINITY;
  for (let start = first; start + n <= last; start++) {
    let sum = 0;
    for (let k = 0; k < n; k++) sum += sign * (prices[day * 48 + start + k] as number);
    if (sum < bestSum - 1e-12) {
      bestSum = sum;
      best = start;
    }
  }
  return Array.from({ length: n }, (_, k) => day * 48 + best + k);
}

const published = (rows: readonly { start: number; end: number; price: number }[]) =>
  rows.map((row) => ({ start: row.start, end: row.end, price: row.price, estimated: false }));

describe("the rules policy: the whole rules file replayed through the rules engine", () => {
  const year = loadYear(ROOT);
  const house = backtestHouse(join(dir, "house"), RULES);
  let series: HalfHourSeries;
  const slots: SlotResult[] = [];
  const socBefore: number[] = [];

  beforeAll(async () => {
    vi.stubEnv("ENERGY2MQTT_CONFIG", "");
    writeYearToStore(year, 0, SLOTS, house.store);
    // The house as the store holds it: metered load and solar, prices as published.
    const store = openStore(house.store);
    try {
      const from = year.starts[0] as number;
      const to = from + SLOTS * 30 * 60_000;
      const metered = meteredHalfHours(store.history, from, to);
      series = {
        starts: metered.starts,
        load: metered.load,
        solar: metered.solar,
        importPrice: pricesOn(metered.starts, published(store.publishedPrices.between("import", from, to))).prices,
        exportPrice: pricesOn(metered.starts, published(store.publishedPrices.between("export", from, to))).prices,
        timeZone: "Europe/London",
      };
    } finally {
      store.close();
    }
    let soc = CAPACITY / 2;
    const report = await replayRules(
      { series, battery, initialSocKwh: soc, rules: loadRules(join(dir, "house", "rules.yaml")).rules },
      (t, energy) => {
        socBefore[t] = soc;
        slots[t] = energy;
        soc = energy.socKwh;
      },
    );
    expect(report.problems).toEqual([]);
    return () => vi.unstubAllEnvs();
  }, 60_000);

  const percent = (kwh: number) => (kwh / CAPACITY) * 100;

  it("charges from the grid in each night's cheapest two hours, up to the rule's 60% and no further", () => {
    expect(series.starts).toHaveLength(SLOTS);
    for (let day = 0; day < DAYS; day++) {
      const window = bestRun(series.importPrice, day, 0, 14, 4, 1);
      for (let t = day * 48; t < day * 48 + 14; t++) {
        const slot = slots[t] as SlotResult;
        // No solar at night: whatever the battery takes comes from the grid, and only in the window.
        if (!window.includes(t)) expect(slot.chargedKwh, `day ${day} slot ${t % 48}`).toBe(0);
        expect(percent(slot.socKwh)).toBeLessThanOrEqual(CHARGE_TARGET + 1e-9);
      }
      const last = window[window.length - 1] as number;
      expect(percent((slots[last] as SlotResult).socKwh), `day ${day}`).toBeCloseTo(CHARGE_TARGET, 6);
      expect(window.some((t) => (slots[t] as SlotResult).chargedKwh > 1)).toBe(true);
    }
  });

  it("exports in the evening's dearest hour at full power, only on days the SoC is above 80% when it opens", () => {
    const exportingDays: number[] = [];
    for (let day = 0; day < DAYS; day++) {
      const window = bestRun(series.exportPrice, day, 32, 40, 2, -1);
      const opensAbove = percent(socBefore[window[0] as number] as number) > EXPORT_IF_ABOVE;
      for (let t = day * 48 + 32; t < day * 48 + 40; t++) {
        const slot = slots[t] as SlotResult;
        if (opensAbove && window.includes(t)) {
          // 3 kW for half an hour, to the grid beyond what the house uses.
          expect(slot.dischargedKwh).toBeCloseTo(1.5, 6);
          expect(slot.exportKwh).toBeGreaterThan(0.5);
          expect(percent(slot.socKwh)).toBeGreaterThanOrEqual(EXPORT_FLOOR - 1e-9);
        } else expect(slot.exportKwh, `day ${day} slot ${t % 48}`).toBe(0);
      }
      if (opensAbove) exportingDays.push(day);
    }
    // The fixture's days: the first evening opens at 76%, the other two above 80%.
    expect(exportingDays).toEqual([1, 2]);
  });

  it("once the SoC falls below 20%, the reserve the rule sets keeps the battery from going lower", () => {
    const crossed = socBefore.findIndex((soc, t) => t > 0 && percent(soc) < RESERVE_BELOW);
    expect(crossed).toBeGreaterThan(0);
    const reached = percent(socBefore[crossed] as number);
    for (let t = crossed; t < SLOTS; t++) {
      const slot = slots[t] as SlotResult;
      if (percent(socBefore[t] as number) <= RESERVE_BELOW + 1e-9) expect(slot.dischargedKwh).toBe(0);
      expect(percent(slot.socKwh)).toBeGreaterThanOrEqual(Math.min(reached, RESERVE_BELOW) - 1e-9);
    }
    // Before the rule fired the battery went below the reserve it sets, as Eco would.
    expect(reached).toBeLessThan(RESERVE_BELOW);
  });

  it("through the command: per-day rows of the replay, which rules were replayed, and what was not", async () => {
    const out = capture();
    const err = capture();
    const options = {
      config: house.config,
      from: "2023-01-01",
      to: "2023-01-03",
      by: "day" as const,
      policies: "no-battery,rules",
    };
    const clock = new VirtualClock(Date.UTC(2026, 0, 20, 12));
    expect(await runBacktestCommand({ ...options, json: true }, out.stream, err.stream, clock)).toBe(0);
    const result = backtestResultSchema.parse(JSON.parse(out.text()));
    for (let day = 0; day < DAYS; day++) {
      const row = result.rows.find((one) => one.policy === "rules" && one.period === `2023-01-0${day + 1}`);
      const mine = slots.slice(day * 48, day * 48 + 48);
      expect(row?.importKwh).toBeCloseTo(
        mine.reduce((sum, slot) => sum + slot.importKwh, 0),
        6,
      );
      expect(row?.exportKwh).toBeCloseTo(
        mine.reduce((sum, slot) => sum + slot.exportKwh, 0),
        6,
      );
    }
    const rules = result.rules ?? [];
    expect(rules.map((rule) => rule.name)).toEqual([
      "night-charge",
      "peak-export",
      "low-battery-reserve",
      "car-at-night",
    ]);
    expect(rules.find((rule) => rule.name === "night-charge")?.windows).toBe(DAYS);
    expect(rules.find((rule) => rule.name === "peak-export")?.changes).toBeGreaterThan(0);
    expect(rules.find((rule) => rule.name === "low-battery-reserve")?.changes).toBe(1);
    expect(rules.find((rule) => rule.name === "car-at-night")?.notReplayed).toEqual([
      "charger commands",
      "notifications",
    ]);
    expect(result.assumptions.join("\n")).toContain("car-at-night (charger commands, notifications)");

    const text = capture();
    expect(await runBacktestCommand(options, text.stream, capture().stream, clock)).toBe(0);
    expect(text.text()).toMatch(
      /Rules replayed.*\n {2}configured: night-charge \d+\/3, peak-export \d+\/\d+, low-battery-reserve 1\/0, car-at-night 0\/0 \(not replayed: charger commands, notifications\)/,
    );
  }, 60_000);

  it("replays the demo house's rules file without an error", async () => {
    let imported = 0;
    const report = await replayRules(
      { series, battery, initialSocKwh: CAPACITY / 2, rules: loadRules(DEMO_RULES_FILE).rules },
      (_, energy) => {
        imported += energy.importKwh;
      },
    );
    expect(report.problems).toEqual([]);
    expect(report.rules.map((rule) => rule.name)).toEqual([
      "optimiser",
      "car-by-morning",
      "solar-surplus-to-car",
      "low-battery-alert",
    ]);
    expect(report.rules[0]?.changes).toBeGreaterThan(0);
    expect(imported).toBeGreaterThan(0);
  }, 60_000);
});
