import { describe, expect, it } from "vitest";
import { type ReplayInput, replayPolicy } from "../../src/backtest/replay.js";

/*
 * The exact optimum where a half-hour's import is cheaper than its export (a fixed export price
 * above a cheap night rate, as the demo house's tariff): buying and selling at once would pay
 * there, and the meter never does both in one half-hour.
 */

const SLOT_MS = 30 * 60_000;
const START = Date.UTC(2023, 0, 2);

describe("the backtest's exact optimum with import cheaper than export", () => {
  it("charges in one cheap half-hour and exports in the next, never both in one: the optimum by hand", async () => {
    // 1 kWh a half-hour in or out, lossless, empty at the start, no house load, no solar.
    // By hand: the battery can only export what it holds. Half-hour 0: charge 1 kWh at 0.10;
    // half-hour 1: export it at 0.20; half-hour 2 (import 0.30, export 0.05): nothing pays (a kWh
    // bought in 1 instead of exported would earn 0.05 there, against 0.20 in 1). Cost 0.10 - 0.20.
    const input: ReplayInput = {
      series: {
        starts: [0, 1, 2].map((t) => START + t * SLOT_MS),
        load: [0, 0, 0],
        solar: [0, 0, 0],
        importPrice: [0.1, 0.1, 0.3],
        exportPrice: [0.2, 0.2, 0.05],
        timeZone: "Europe/London",
      },
      battery: {
        capacityKwh: 2,
        chargeKw: 2,
        dischargeKw: 2,
        chargeEfficiency: 1,
        dischargeEfficiency: 1,
        reservePercent: 0,
      },
      initialSocKwh: 0,
    };
    const replay = await replayPolicy("exact-optimum", input);
    if (!replay || "skipped" in replay) throw new Error("no exact optimum");
    const { importKwh, exportKwh, cost } = replay.flows;
    expect(Array.from(importKwh).map((kwh) => Number(kwh.toFixed(9)))).toEqual([1, 0, 0]);
    expect(Array.from(exportKwh).map((kwh) => Number(kwh.toFixed(9)))).toEqual([0, 1, 0]);
    expect(cost.reduce((sum, value) => sum + value, 0)).toBeCloseTo(-0.1, 9);
    for (let t = 0; t < 3; t++) expect(Math.min(importKwh[t] as number, exportKwh[t] as number)).toBeLessThan(1e-9);
  });
});
