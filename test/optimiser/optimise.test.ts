import { describe, expect, it } from "vitest";
import { type Battery, type Mode, optimise, slotCost, slotEnergy } from "../../src/optimiser/index.js";

const BATTERY: Battery = {
  capacityKwh: 9.5,
  chargeKw: 3,
  dischargeKw: 3,
  chargeEfficiency: 0.95,
  dischargeEfficiency: 0.95,
  reservePercent: 10,
};
const EPS = 1e-6;

/** A small deterministic generator, so the random days are the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647;
  };
}

function day(seed: number, slots = 96) {
  const next = random(seed);
  const importPrices = Array.from({ length: slots }, () => -0.05 + next() * 0.5);
  return {
    importPrices,
    exportPrices: importPrices.map((price) => price * (0.3 + next() * 0.6)),
    load: Array.from({ length: slots }, () => next() * 2),
    solar: Array.from({ length: slots }, (_, t) => (t % 48 > 14 && t % 48 < 36 ? next() * 2.5 : 0)),
  };
}

describe("optimise keeps to the battery", () => {
  it("never plans beyond the capacity or the power limits, nor below the reserve", () => {
    const reserve = (BATTERY.reservePercent / 100) * BATTERY.capacityKwh;
    for (let seed = 1; seed <= 12; seed++) {
      const startSoc = 1 + (seed % 8);
      const schedule = optimise({ ...day(seed), battery: BATTERY, socKwh: startSoc, terminalValue: 0.1 });
      let soc = startSoc;
      for (const slot of schedule.slots) {
        expect(slot.socKwh).toBeLessThanOrEqual(BATTERY.capacityKwh + EPS);
        expect(slot.socKwh).toBeGreaterThanOrEqual(reserve - EPS);
        expect(slot.socKwh - soc).toBeLessThanOrEqual(BATTERY.chargeKw * 0.5 * BATTERY.chargeEfficiency + EPS);
        expect(soc - slot.socKwh).toBeLessThanOrEqual((BATTERY.dischargeKw * 0.5) / BATTERY.dischargeEfficiency + EPS);
        soc = slot.socKwh;
      }
      expect(schedule.slots.some((slot) => slot.mode === "charge")).toBe(true);
      expect(schedule.solveMs).toBeLessThan(1000);
    }
  });

  it("does not discharge below the reserve even when export is dear, and plans what the energy model gives", () => {
    const slots = 6;
    const schedule = optimise({
      importPrices: Array(slots).fill(0.2),
      exportPrices: Array(slots).fill(5),
      load: Array(slots).fill(0.3),
      solar: Array(slots).fill(0),
      battery: BATTERY,
      socKwh: 9.5,
    });
    expect(schedule.slots.every((slot) => slot.mode === "export")).toBe(true);
    const last = schedule.slots[slots - 1];
    expect(last?.socKwh).toBeCloseTo(0.95, 6);
    let soc = 9.5;
    let cost = 0;
    for (const slot of schedule.slots) {
      const result = slotEnergy(BATTERY, 0.5, slot.mode, soc, 0.3, 0, slot.targetKwh);
      expect(result.socKwh).toBeCloseTo(slot.socKwh, 9);
      cost += slotCost(result, 0.2, 5);
      soc = result.socKwh;
    }
    expect(schedule.expectedCost).toBeCloseTo(cost + 0.002, 9);
  });
});

describe("optimise chooses what pays", () => {
  it("holds rather than cycles when prices are flat", () => {
    const slots = 96;
    const schedule = optimise({
      importPrices: Array(slots).fill(0.25),
      exportPrices: Array(slots).fill(0.25),
      load: Array.from({ length: slots }, (_, t) => 0.2 + (t % 48 >= 34 && t % 48 < 40 ? 0.8 : 0)),
      solar: Array(slots).fill(0),
      battery: BATTERY,
      socKwh: 5,
      terminalValue: 0.25 * BATTERY.dischargeEfficiency,
    });
    expect(schedule.slots.filter((slot) => slot.mode === "charge" || slot.mode === "export")).toEqual([]);
    expect(schedule.modeChanges).toBe(0);
  });

  it("exports bought energy only when the price gap pays for both efficiencies", () => {
    const plan = (exportPrice: number) =>
      optimise({
        importPrices: [0.2, 1, 1, 1],
        exportPrices: [0, exportPrice, 0, 0],
        load: [0, 0, 0, 0],
        solar: [0, 0, 0, 0],
        battery: { ...BATTERY, reservePercent: 0 },
        socKwh: 0,
        changeCost: 0,
      });
    // A kWh bought at 0.20 returns 0.95 x 0.95 = 0.9025 kWh: break-even at 0.2216.
    const pays = plan(0.25);
    expect(pays.slots[0]?.mode).toBe("charge");
    expect(pays.slots[1]?.mode).toBe("export");
    expect(pays.slots[1]?.exportKwh).toBeCloseTo(1.5 * 0.95 * 0.95, 9);
    expect(pays.expectedCost).toBeLessThan(0);
    const losing = plan(0.21);
    expect(losing.slots.some((slot) => slot.mode === "charge" || slot.mode === "export")).toBe(false);
    expect(losing.expectedCost).toBe(0);
  });
});

describe("optimise on a hand-checked small case", () => {
  // Loads and solar on the 0.5 kWh grid, and lossless, so every action lands on a grid point.
  const battery: Battery = {
    capacityKwh: 3,
    chargeKw: 2,
    dischargeKw: 2,
    chargeEfficiency: 1,
    dischargeEfficiency: 1,
    reservePercent: 0,
  };
  const input = {
    importPrices: [0.3, 0.05, 0.4, 0.35, 0.1],
    exportPrices: [0.05, 0.02, 0.3, 0.1, 0.04],
    load: [0.5, 0.5, 1, 0.5, 0.5],
    solar: [1, 0, 0, 0, 1.5],
    battery,
    socKwh: 1,
    mode: "eco" as Mode,
    changeCost: 0.01,
    socStepKwh: 0.5,
  };

  /** Every sequence of actions: eco, hold, charge to a grid point above, export to one below (or full power). */
  function bruteForce(): number {
    const targets = [0, 0.5, 1, 1.5, 2, 2.5, 3];
    let best = Number.POSITIVE_INFINITY;
    const walk = (t: number, soc: number, mode: Mode, cost: number): void => {
      if (t === input.load.length) {
        best = Math.min(best, cost);
        return;
      }
      const actions: { mode: Mode; target?: number }[] = [{ mode: "eco" }, { mode: "hold" }];
      if (soc < battery.capacityKwh) {
        actions.push({ mode: "charge" });
        for (const target of targets) if (target > soc && target < soc + 1) actions.push({ mode: "charge", target });
      }
      if (soc > 0) {
        actions.push({ mode: "export" });
        for (const target of targets) if (target < soc && target > soc - 1) actions.push({ mode: "export", target });
      }
      for (const action of actions) {
        const result = slotEnergy(
          battery,
          0.5,
          action.mode,
          soc,
          input.load[t] ?? 0,
          input.solar[t] ?? 0,
          action.target,
        );
        const slot = slotCost(result, input.importPrices[t] ?? 0, input.exportPrices[t] ?? 0);
        walk(t + 1, result.socKwh, action.mode, cost + slot + (action.mode === mode ? 0 : input.changeCost));
      }
    };
    walk(0, input.socKwh, input.mode, 0);
    return best;
  }

  it("equals the optimum found by enumerating every action sequence", () => {
    const optimum = bruteForce();
    const schedule = optimise(input);
    expect(schedule.expectedCost).toBeCloseTo(optimum, 9);
    // By hand: charge in the 0.05 slot, serve the 0.40 and 0.35 slots from the battery.
    expect(schedule.slots[1]?.mode).toBe("charge");
    expect(schedule.slots[2]?.importKwh).toBe(0);
  });
});

describe("optimise refuses bad input", () => {
  it("names series of different lengths", () => {
    expect(() =>
      optimise({
        importPrices: [0.1, 0.2],
        exportPrices: [0],
        load: [0, 0],
        solar: [0, 0],
        battery: BATTERY,
        socKwh: 1,
      }),
    ).toThrow(/one value per slot/);
  });
});
