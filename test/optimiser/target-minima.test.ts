import { describe, expect, it } from "vitest";
import { type Battery, slotCost, slotEnergy } from "../../src/optimiser/index.js";
import { kindOf, RunsOfKind, type StepRun, targetMinima, windowScratch } from "../../src/optimiser/target-minima.js";
import { sequence } from "../../src/simulator/random.js";

/*
 * The backward pass finds the best charge and export to a grid target by sliding minima over
 * runs of steps whose cost is linear. It must give what trying every step gives, to the bit, or
 * the plans (and the backtest's figures) would move: here on slots of every kind (import, export,
 * export cut at the limit, negative prices) against that plain loop.
 */

const SLOT_HOURS = 0.5;

interface Case {
  readonly battery: Battery;
  readonly points: number;
  readonly step: number;
  readonly load: number;
  readonly solar: number;
  readonly importPrice: number;
  readonly exportPrice: number;
  readonly next: Float64Array;
}

function caseOf(r: () => number): Case {
  const capacityKwh = 2 + 15 * r();
  const points = 10 + Math.floor(r() * 190);
  return {
    battery: {
      capacityKwh,
      chargeKw: 0.5 + 6 * r(),
      dischargeKw: 0.5 + 6 * r(),
      chargeEfficiency: 0.85 + 0.15 * r(),
      dischargeEfficiency: 0.85 + 0.15 * r(),
      reservePercent: 0,
      ...(r() < 0.5 ? { exportLimitKw: 0.3 + 4 * r() } : {}),
    },
    points,
    step: capacityKwh / (points - 1),
    load: r() < 0.2 ? 0 : 3 * r(),
    solar: r() < 0.3 ? 0 : 5 * r(),
    importPrice: r() < 0.2 ? -0.2 * r() : 0.4 * r(),
    exportPrice: r() < 0.1 ? -0.1 * r() : r() < 0.3 ? 0.15 : 0.3 * r(),
    // Values with plateaus (equal totals) as well as slopes.
    next: Float64Array.from({ length: 4 * points }, () => (r() < 0.3 ? 0.5 : Math.round(r() * 40) / 40)),
  };
}

/** The step costs and their linear runs, as the backward pass makes them. */
function stepsOf(c: Case, mode: "charge" | "export"): { cost: Float64Array; runs: StepRun[] } {
  const power = mode === "charge" ? c.battery.chargeKw : c.battery.dischargeKw;
  const cost = new Float64Array(c.points);
  const runs: StepRun[] = [];
  const kinds = new RunsOfKind(runs, cost);
  const exportCap = c.battery.exportLimitKw === undefined ? Number.POSITIVE_INFINITY : c.battery.exportLimitKw * 0.5;
  const top = c.battery.capacityKwh;
  for (let k = 1; k < c.points; k++) {
    const result =
      mode === "charge"
        ? slotEnergy(c.battery, SLOT_HOURS, "charge", 0, c.load, c.solar, k * c.step)
        : slotEnergy(c.battery, SLOT_HOURS, "export", top, c.load, c.solar, top - k * c.step);
    cost[k] = slotCost(result, c.importPrice, c.exportPrice);
    kinds.add(k, kindOf(result, exportCap, power * SLOT_HOURS));
  }
  kinds.close();
  return { cost, runs };
}

/** Steps within reach per point (0: none), as the battery's power allows: i + end[i] never falls as i rises. */
function reachOf(c: Case, mode: "charge" | "export", r: () => number): Int32Array {
  const power = mode === "charge" ? c.battery.chargeKw : c.battery.dischargeKw;
  const most = Math.max(2, Math.ceil((power * SLOT_HOURS) / c.step));
  const closed = Math.floor(r() * 3);
  return Int32Array.from({ length: c.points }, (_, i) => {
    if (mode === "charge") return i >= c.points - 1 - closed ? 0 : Math.min(most, c.points - i);
    return i <= closed ? 0 : Math.min(most, i + 1);
  });
}

function plainLoop(cost: Float64Array, next: Float64Array, offset: number, end: Int32Array, sign: 1 | -1) {
  return Array.from(end, (reach, i) => {
    let least = Number.POSITIVE_INFINITY;
    for (let k = 1; k < reach; k++) {
      const total = (cost[k] as number) + (next[offset + i + sign * k] as number);
      if (total < least) least = total;
    }
    return least;
  });
}

describe("the best charge and export to a grid target", () => {
  it("are what trying every step gives, on a thousand slots of every kind", () => {
    const r = sequence(2026);
    let kinds = 0;
    for (let n = 0; n < 1000; n++) {
      const c = caseOf(r);
      const scratch = windowScratch(c.points);
      const out = new Float64Array(c.points);
      const charge = stepsOf(c, "charge");
      const chargeEnd = reachOf(c, "charge", r);
      targetMinima(1, charge.cost, charge.runs, c.next, 2 * c.points, chargeEnd, c.points, scratch, out);
      expect([...out]).toEqual(plainLoop(charge.cost, c.next, 2 * c.points, chargeEnd, 1));
      const discharge = stepsOf(c, "export");
      const exportEnd = reachOf(c, "export", r);
      targetMinima(-1, discharge.cost, discharge.runs, c.next, 3 * c.points, exportEnd, c.points, scratch, out);
      expect([...out]).toEqual(plainLoop(discharge.cost, c.next, 3 * c.points, exportEnd, -1));
      kinds = Math.max(kinds, charge.runs.length, discharge.runs.length);
    }
    // Some slots change kind within the battery's reach: the runs are really split.
    expect(kinds).toBeGreaterThanOrEqual(3);
  });

  it("split a slot's steps where its grid flow changes kind", () => {
    // 1 kWh of surplus, an export limit of 0.5 kWh: charging takes the surplus in, first the cut
    // part (free), then the exported part (at the export price), then imports.
    const c: Case = {
      battery: {
        capacityKwh: 4,
        chargeKw: 10,
        dischargeKw: 10,
        chargeEfficiency: 1,
        dischargeEfficiency: 1,
        reservePercent: 0,
        exportLimitKw: 1,
      },
      points: 41,
      step: 0.1,
      load: 0,
      solar: 1,
      importPrice: 0.3,
      exportPrice: 0.1,
      next: new Float64Array(4 * 41),
    };
    const { runs } = stepsOf(c, "charge");
    expect(runs.map((run) => run.slope.toFixed(3))).toEqual(["0.000", "0.010", "0.030"]);
    expect(runs[0]?.from).toBe(1);
    expect(runs.at(-1)?.to).toBe(40);
  });
});
