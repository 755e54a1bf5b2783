import { describe, expect, it } from "vitest";
import { loadRules } from "../../src/rules/file/load.js";
import { planOptimiseWindows } from "../../src/rules/planners/optimise-windows.js";
import { planRuleWindows } from "../../src/rules/planners/rule-windows.js";
import { createTariff, type Rate } from "../../src/rules/tariffs/index.js";
import { problemsOf, rulesFile, utc } from "./helpers.js";

const SLOT = 30 * 60_000;
const NOW = utc("2026-01-14T22:00:00");
const SPEC = { horizon_hours: 24, reserve_soc: 10, discharge_efficiency: 0.95, change_cost: 0.02 };
const BATTERY = { capacityKwh: 10, chargeKw: 3, chargeEfficiency: 0.95 };

/** Half-hourly rates from NOW with the prices given. */
const rates = (prices: readonly number[]): Rate[] =>
  prices.map((price, index) => ({ start: NOW + index * SLOT, end: NOW + (index + 1) * SLOT, price, estimated: false }));

/** Two weeks of published prices before now, all at `price`. */
const past = (price: number): Rate[] =>
  Array.from({ length: 14 * 48 }, (_, index) => {
    const start = NOW - (index + 1) * SLOT;
    return { start, end: start + SLOT, price, estimated: false };
  });

/** A plan's input with four half-hours' import prices published (exports at 0.01), a 48-hour horizon and the battery at 20%. */
const fourPublished = (imports: readonly number[]) => ({
  spec: SPEC,
  now: NOW,
  to: NOW + 48 * 3_600_000,
  importRates: rates(imports),
  exportRates: rates([0.01, 0.01, 0.01, 0.01]),
  soc: 20,
  ...BATTERY,
});

describe("the optimiser's windows", () => {
  it("charges in the cheap half-hours and exports in the dear ones, with targets within the battery's limits", () => {
    const importPrices = [0.3, 0.05, 0.05, 0.05, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3];
    const exportPrices = [0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.3, 0.3, 0.3, 0.05];
    const plan = planOptimiseWindows({
      spec: SPEC,
      now: NOW,
      to: NOW + 48 * 3_600_000,
      importRates: rates(importPrices),
      exportRates: rates(exportPrices),
      soc: 20,
      ...BATTERY,
    });
    const at = (window: { start: number; end: number }) => [(window.start - NOW) / SLOT, (window.end - NOW) / SLOT];
    const [charge] = plan.windows;
    // Three cheap half-hours at full power: 20% + 3 x 1.425 kWh of 10 kWh, to a whole percent the plan's grid allows.
    expect(charge && [charge.mode, at(charge)[0]]).toEqual(["charge", 1]);
    // Nothing is bought at 0.30: the SoC moves only in the three cheap half-hours (but for a step or two of the plan's 0.1 kWh SoC grid).
    const socs = plan.soc.map((point) => point.soc);
    expect(socs[0]).toBe(20);
    expect(Math.abs((socs[4] ?? 0) - (socs[3] ?? 0))).toBeLessThan(2);
    expect(Math.abs((socs[5] ?? 0) - (socs[3] ?? 0))).toBeLessThan(2);
    expect(charge?.targetSoc).toBeGreaterThanOrEqual(55);
    expect(charge?.targetSoc).toBeLessThanOrEqual(63);
    // The three dear export half-hours take what full power can in them (3 x 1.58 kWh); nothing much goes at 0.05 before.
    const dump = plan.windows.find((window) => window.mode === "export" && window.start === NOW + 6 * SLOT);
    expect(dump && at(dump)[1]).toBeGreaterThanOrEqual(9);
    expect(dump?.targetSoc).toBeGreaterThanOrEqual(SPEC.reserve_soc);
    expect(dump?.targetSoc).toBeLessThanOrEqual(20);
    for (const early of plan.windows.filter((window) => window.mode === "export" && window.start < NOW + 6 * SLOT))
      expect(early.targetSoc).toBeGreaterThanOrEqual(55);
    // One SoC point per half-hour planned, never above full or below the reserve.
    expect(plan.soc).toHaveLength(importPrices.length);
    for (const point of plan.soc) {
      expect(point.soc).toBeLessThanOrEqual(100);
      expect(point.soc).toBeGreaterThanOrEqual(SPEC.reserve_soc - 0.1);
    }
  });

  it("plans beyond the published prices from their history, acting only within the published ones", () => {
    const published = [0.05, 0.05, 0.05, 0.05];
    // Two weeks of published prices before now: dear imports and exports that pay.
    const input = fourPublished(published);
    const alone = planOptimiseWindows(input);
    const ahead = planOptimiseWindows({
      ...input,
      priceHistory: { timeZone: "Europe/London", import: past(0.4), export: past(0.3) },
    });
    // Cheap now and nothing known after: buying is not worth it. Dear later by the history: buy now.
    expect(alone.windows.filter((window) => window.mode === "charge")).toEqual([]);
    const charge = ahead.windows.find((window) => window.mode === "charge");
    expect(charge?.start).toBe(NOW);
    expect(charge?.targetSoc).toBeGreaterThan(50);
    for (const window of ahead.windows) expect(window.start).toBeLessThan(NOW + published.length * SLOT);
    expect(ahead.soc).toHaveLength(published.length);
    expect(ahead.basis?.slots).toHaveLength(published.length);
  });

  it("forecasts again when the price history it learned from changes, not only when more prices are published", () => {
    // The forecast past the published prices is kept between re-plans: the same `now`, published
    // prices and history must give the same plan, and a history that differs within the days the
    // forecast learns from (here: imports dearer than now's) a different one, in either order.
    const input = fourPublished([0.05, 0.05, 0.05, 0.05]);
    const plan = (importPrice: number) =>
      planOptimiseWindows({
        ...input,
        priceHistory: { timeZone: "Europe/London", import: past(importPrice), export: past(0.01) },
      }).expectedCost;
    // Imports as cheap as now's ahead: nothing to buy now. Dear ones: the battery is filled now.
    const cheap = plan(0.02);
    const dear = plan(0.4);
    expect(dear).toBeGreaterThan(cheap);
    expect(plan(0.02)).toBe(cheap);
    expect(plan(0.4)).toBe(dear);
  });

  it("knows the site's export limit: a forced export on top of solar is planned only up to it", () => {
    // A sunny afternoon: 4 kW of solar over a 0.2 kW house and the battery nearly full.
    const slots = 8;
    const input = {
      spec: { ...SPEC, discharge_kw: 5 },
      now: NOW,
      to: NOW + slots * SLOT,
      importRates: rates(Array(slots).fill(0.3)),
      // Exports pay well for the first two half-hours only.
      exportRates: rates([0.4, 0.4, ...Array(slots - 2).fill(0.05)]),
      house: { from: NOW, load: Array(slots).fill(0.1), solar: Array(slots).fill(2), days: 7 },
      soc: 90,
      ...BATTERY,
    };
    const exported = (plan: ReturnType<typeof planOptimiseWindows>) =>
      Math.max(...(plan.basis?.slots ?? []).map((slot) => slot.exportKwh));
    // Without the limit the plan counts on more than 5 kW for half an hour (2.5 kWh) going out and being paid.
    expect(exported(planOptimiseWindows(input))).toBeGreaterThan(2.5 + 1e-6);
    const limited = planOptimiseWindows({ ...input, spec: { ...input.spec, export_limit_kw: 5 } });
    expect(exported(limited)).toBeLessThanOrEqual(2.5 + 1e-6);
    expect(limited.expectedCost).toBeGreaterThan(planOptimiseWindows(input).expectedCost);
  });

  it("plans no window when prices are flat and exporting pays less than importing", () => {
    const plan = planOptimiseWindows({
      spec: SPEC,
      now: NOW,
      to: NOW + 48 * 3_600_000,
      importRates: rates(Array.from({ length: 48 }, () => 0.25)),
      exportRates: rates(Array.from({ length: 48 }, () => 0.15)),
      soc: 50,
      ...BATTERY,
    });
    expect(plan.windows).toEqual([]);
  });

  it("plans only as far as import prices are known, and says when none are", () => {
    const known = planOptimiseWindows({
      spec: SPEC,
      now: NOW,
      to: NOW + 48 * 3_600_000,
      importRates: rates([0.3, 0.3, 0.3]),
      exportRates: [],
      soc: 50,
      ...BATTERY,
    });
    expect(known.soc).toHaveLength(3);
    const none = planOptimiseWindows({
      spec: SPEC,
      now: NOW,
      to: NOW + 48 * 3_600_000,
      importRates: [],
      exportRates: [],
      soc: 50,
      ...BATTERY,
    });
    expect(none).toMatchObject({ windows: [], notes: ["no import prices known"] });
  });
});

describe("an optimise rule in rules.yaml", () => {
  it("needs no do: its windows carry the presets of their mode, charging at night for the house's day", () => {
    const file = rulesFile([
      "battery: { capacity_kwh: 10 }",
      "tariffs:",
      "  import:",
      "    type: zones",
      "    price: 0.30",
      "    zones:",
      '      - { hours: "00:30-04:30", price: 0.05 }',
      "  export: { type: fixed, price: 0.02 }",
      "rules:",
      "  - name: optimiser",
      "    when: { optimise: { reserve_soc: 10 } }",
    ]);
    const { rules } = loadRules(file);
    const [rule] = rules.rules;
    if (!rule) throw new Error("no rule");
    expect(rule.do).toEqual([]);
    expect(rule.restore).toBe("after_window");
    const imports = rules.tariffs.import;
    const exports = rules.tariffs.export;
    if (!imports || !exports) throw new Error("no tariffs");
    const planned = planRuleWindows(rule, {
      rules,
      tariffs: { import: createTariff(imports, "UTC"), export: createTariff(exports, "UTC") },
      timeZone: "UTC",
      now: NOW,
      to: NOW + 24 * 3_600_000,
      soc: 20,
      capacityKwh: undefined,
      // The house uses 0.5 kWh a half-hour all day: worth charging for at night.
      house: {
        from: NOW,
        load: Array.from({ length: 48 }, () => 0.5),
        solar: Array.from({ length: 48 }, () => 0),
        days: 7,
      },
    });
    const charge = planned.windows.find((window) => window.plan["plan.mode"] === "charge");
    expect(charge).toBeDefined();
    expect(charge?.start).toBeGreaterThanOrEqual(utc("2026-01-15T00:30:00"));
    expect(charge?.end).toBeLessThanOrEqual(utc("2026-01-15T04:30:00"));
    expect(charge?.actions?.map((action) => action.preset)).toEqual(["timed-charge"]);
    expect(planned.soc.length).toBeGreaterThan(0);
  });

  it("refuses a rule of another kind without do:, saying what to add", () => {
    const file = rulesFile([
      "tariffs:",
      "  import: { type: fixed, price: 0.25 }",
      "rules:",
      "  - name: nothing-to-do",
      '    when: { cron: "0 3 * * *" }',
    ]);
    expect(problemsOf(() => loadRules(file)).join("\n")).toContain(
      "do: is needed (a list of actions); only an optimise rule may leave it out",
    );
  });
});
