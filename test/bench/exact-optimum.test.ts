import { describe, expect, it } from "vitest";
import { type ExactInput, ExactTimeoutError, exactOptimum } from "../../src/backtest/exact.js";
import { exactByBlocks } from "../../src/backtest/exact-blocks.js";
import type { Battery } from "../../src/optimiser/index.js";

/** 1 kWh a half-hour in and out, lossless unless a case says otherwise, 1 kWh of export a half-hour. */
const battery: Battery = {
  capacityKwh: 2,
  chargeKw: 2,
  dischargeKw: 2,
  chargeEfficiency: 1,
  dischargeEfficiency: 1,
  reservePercent: 0,
  exportLimitKw: 2,
};

const input = (
  slots: { load: number; solar: number; buy: number; sell: number }[],
  overrides: Partial<ExactInput> = {},
) => ({
  importPrices: slots.map((slot) => slot.buy),
  exportPrices: slots.map((slot) => slot.sell),
  load: slots.map((slot) => slot.load),
  solar: slots.map((slot) => slot.solar),
  battery,
  initialSocKwh: 0,
  slotHours: 0.5,
  ...overrides,
});

describe("the exact optimum of the planner-year bench", () => {
  it("stops with ExactTimeoutError, naming the program, once its time is spent (never runs on silently)", async () => {
    const problem = input([{ load: 1, solar: 0, buy: 0.1, sell: 0.05 }]);
    const stopped = exactOptimum(problem, { curtail: "at-limit", timeLimitSeconds: 0 });
    await expect(stopped).rejects.toBeInstanceOf(ExactTimeoutError);
    await expect(stopped).rejects.toThrow("a 1-half-hour mixed-integer program did not finish in 0 s");
  });

  it("solves six crafted half-hours to the optimum derived by hand, with the meter's rules binding", async () => {
    // By hand: charge 1 kWh at -0.10 (slot 0) and 1 kWh at 0.10 (slot 1); the battery serves slot 2's
    // load; slot 3's 2 kWh of solar charge 1 kWh and export 1 kWh (the limit) at 0.04; the battery
    // serves slot 4's load and exports its last kWh at 0.25 in slot 5:
    // -0.10 + 0.10 - 0.04 - 0.25 = -0.29. Without the binaries slot 0 would also import 1 kWh to
    // export it at 0 (-0.10): -0.39. (Slot 5 sells dearer than it buys, but its export is at the limit.)
    const problem = input([
      { load: 0, solar: 0, buy: -0.1, sell: 0 },
      { load: 0, solar: 0, buy: 0.1, sell: 0.05 },
      { load: 1, solar: 0, buy: 0.3, sell: 0.05 },
      { load: 0, solar: 2, buy: 0.2, sell: 0.04 },
      { load: 1, solar: 0, buy: 0.35, sell: 0.05 },
      { load: 0, solar: 0, buy: 0.2, sell: 0.25 },
    ]);
    const lazy = await exactOptimum(problem, { curtail: "at-limit" });
    expect(lazy.cost).toBeCloseTo(-0.29, 6);
    expect(lazy.relaxedCost).toBeCloseTo(-0.39, 6);
    expect(lazy.rounds).toBeGreaterThan(1);
    expect(lazy.slots.map((slot) => slot.socKwh)).toEqual([1, 2, 1, 2, 1, 0].map((kwh) => expect.closeTo(kwh, 6)));
    expect(lazy.slots[0]?.exportKwh).toBeCloseTo(0, 6);
    expect(lazy.slots[5]?.importKwh).toBeCloseTo(0, 6);
    const full = await exactOptimum(problem, { curtail: "at-limit", allBinaries: true });
    expect(full.cost).toBeCloseTo(lazy.cost, 6);
    expect(full.rounds).toBe(1);
  });

  it("forbids charging and discharging at once, which would burn energy bought at a negative price", async () => {
    // A full battery at 90% each way: charging 1 kWh while discharging 0.81 kWh keeps it full and
    // imports 0.19 kWh more; with the export also allowed alongside, the relaxation imports 1.19 kWh
    // at -0.10. The meter can do neither: a full battery and no load leave nothing to do.
    const lossy = { ...battery, chargeEfficiency: 0.9, dischargeEfficiency: 0.9 };
    const problem = input([{ load: 0, solar: 0, buy: -0.1, sell: 0 }], { battery: lossy, initialSocKwh: 2 });
    const result = await exactOptimum(problem, { curtail: "at-limit" });
    expect(result.relaxedCost).toBeCloseTo(-0.119, 6);
    expect(result.cost).toBeCloseTo(0, 6);
    const slot = result.slots[0];
    expect(Math.min(slot?.chargeKwh ?? 0, slot?.dischargeKwh ?? 0)).toBeCloseTo(0, 6);
  });

  it("curtails solar only at the export limit, as the meter does; the free variant throws it away to import", async () => {
    const problem = input([{ load: 1, solar: 1, buy: -0.1, sell: 0 }], { initialSocKwh: 2 });
    const meter = await exactOptimum(problem, { curtail: "at-limit" });
    expect(meter.cost).toBeCloseTo(0, 6);
    expect(meter.slots[0]?.curtailKwh).toBeCloseTo(0, 6);
    const free = await exactOptimum(problem, { curtail: "free" });
    expect(free.cost).toBeCloseTo(-0.1, 6);
    expect(free.slots[0]?.curtailKwh).toBeCloseTo(1, 6);
  });

  it("in blocks, brackets the whole program's optimum between its chained schedule and its Lagrangian bound", async () => {
    // Two days of a fixed pattern: cheap and negative nights, dear evenings, a solar noon past the export limit.
    const slots = Array.from({ length: 24 }, (_, t) => {
      const hour = (t % 12) * 2;
      return {
        load: 0.2 + (hour >= 16 && hour < 21 ? 0.8 : 0),
        solar: hour >= 9 && hour <= 15 ? 1.6 : 0,
        buy: hour < 5 ? (t < 12 ? -0.05 : 0.06) : hour >= 16 && hour < 20 ? 0.35 : 0.2,
        sell: hour >= 16 && hour < 20 ? 0.3 : 0.05,
      };
    });
    const problem = input(slots, { battery: { ...battery, chargeEfficiency: 0.95, dischargeEfficiency: 0.95 } });
    const whole = await exactOptimum(problem, { curtail: "at-limit" });
    const blocks = await exactByBlocks({ ...problem, initialSocKwh: 0 }, { curtail: "at-limit" }, 8);
    expect(blocks.blocks).toBe(3);
    expect(blocks.lowerBound).toBeLessThanOrEqual(whole.cost + 1e-6);
    expect(blocks.cost).toBeGreaterThanOrEqual(whole.cost - 1e-6);
    expect(blocks.cost).toBeCloseTo(whole.cost, 6);
    expect(blocks.slots).toHaveLength(24);
  });
  it("without an export limit, where export pays more than import, exports only what the slot has", async () => {
    // A fixed export tariff above a cheap night rate (the demo house's): the relaxation must not import
    // to export without end. By hand: charge 1 kWh at 0.085 in slot 0, export it at 0.15 in slot 1,
    // and slot 1's own 1 kWh of solar surplus at 0.15: 0.085 - 0.30 = -0.215.
    const { exportLimitKw: _limit, ...unlimited } = battery;
    const result = await exactOptimum(
      input(
        [
          { load: 0, solar: 0, buy: 0.085, sell: 0.15 },
          { load: 0, solar: 1, buy: 0.27, sell: 0.15 },
        ],
        { battery: unlimited },
      ),
      { curtail: "at-limit" },
    );
    expect(result.cost).toBeCloseTo(-0.215, 6);
    for (const slot of result.slots) expect(Math.min(slot.importKwh, slot.exportKwh)).toBeLessThan(1e-6);
  });
});
