import type { Scenario } from "../../src/simulator/index.js";

/**
 * The scenario with every inverter's random fault rate at zero: a fault of up to three hours on
 * some days would make what a test sees depend on the date the suite runs.
 */
export function withoutRandomFaults(scenario: Scenario): Scenario {
  const calm = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(calm);
    if (typeof value !== "object" || value === null) return value;
    const entries = Object.entries(value).map(([key, item]) => [key, key === "faults_per_month" ? 0 : calm(item)]);
    return Object.fromEntries(entries);
  };
  return calm(scenario) as Scenario;
}
