import { describe, expect, it } from "vitest";
import type { ExplainedSlot } from "../../src/optimiser/index.js";
import { noBatteryCost } from "../../src/rules/savings/plan-baseline.js";

const row = (loadKwh: number, solarKwh: number, importPrice: number, exportPrice: number): ExplainedSlot => ({
  start: 0,
  time: "2026-11-23 00:00",
  action: "charge",
  importPrice,
  exportPrice,
  socPercent: 50,
  loadKwh,
  solarKwh,
  importKwh: 3,
  exportKwh: 0,
  cost: 9,
  runningCost: 9,
  reason: "charge: cheap",
});

describe("the optimiser's half-hours with no battery", () => {
  it("imports what solar leaves of the load and exports the surplus, whatever the battery did", () => {
    // 1 kWh short at 30p, then 0.5 kWh over at 15p export: 0.30 - 0.075.
    expect(noBatteryCost([row(1.2, 0.2, 0.3, 0.15), row(0.25, 0.75, 0.2, 0.15)])).toBeCloseTo(0.225, 12);
    expect(noBatteryCost([])).toBe(0);
  });
});
