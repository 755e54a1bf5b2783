import type { Battery } from "../../src/optimiser/index.js";

/** What every battery of the bench shares: the 9.5 kWh battery's efficiencies, reserve and export limit. */
const SHARED = {
  chargeEfficiency: 0.95,
  dischargeEfficiency: 0.95,
  reservePercent: 4,
  exportLimitKw: 5,
} as const;

export interface BenchBattery {
  /** How the bench is asked for it: `npm run bench -- planner-year:<key>`. */
  readonly key: string;
  readonly battery: Battery;
  /** The bar for the optimise rule with the modelled weather forecast, share of the exact saving. */
  readonly weatherBar: number;
  /** The bar with the learned profile alone, where the issue sets one. */
  readonly learnedBar?: number;
}

export const BENCH_BATTERIES: readonly BenchBattery[] = [
  {
    key: "9.5",
    battery: { capacityKwh: 9.5, chargeKw: 3, dischargeKw: 3, ...SHARED },
    weatherBar: 95,
    learnedBar: 92,
  },
  { key: "5.2", battery: { capacityKwh: 5.2, chargeKw: 2.6, dischargeKw: 2.6, ...SHARED }, weatherBar: 93 },
  { key: "13.5", battery: { capacityKwh: 13.5, chargeKw: 5, dischargeKw: 5, ...SHARED }, weatherBar: 93 },
];

/** The batteries asked for (by key), all of them when none is. */
export function selectBatteries(keys: readonly string[]): BenchBattery[] {
  if (keys.length === 0) return [...BENCH_BATTERIES];
  const unknown = keys.filter((key) => !BENCH_BATTERIES.some((entry) => entry.key === key));
  if (unknown.length > 0) {
    throw new Error(
      `planner-year: no battery ${unknown.join(", ")}; choose from ${BENCH_BATTERIES.map((entry) => entry.key).join(", ")}`,
    );
  }
  return BENCH_BATTERIES.filter((entry) => keys.includes(entry.key));
}
