import type { State } from "./bank.js";

/** The daily counters today's home consumption is balanced from, each kWh to 0.1 as its register holds it. */
export const LOAD_BALANCE_INPUTS = [
  "today_solar_energy",
  "today_grid_import_energy",
  "today_battery_discharge_energy",
  "today_grid_export_energy",
  "today_battery_charge_energy",
] as const;

/**
 * Today's home consumption, which no single-phase register holds (the cloud computes it), as the
 * energy balance of today's counters: what came in (PV, grid import, battery discharge) less what
 * went out (export, battery charge). GivTCP balances the same way (its Load_Energy_Today_kWh,
 * from the inverter's in and out counters and the grid's); the simulator's house is lossless, so
 * there the balance is exact but for the five registers' rounding (each to 0.1 kWh, at most
 * 0.25 kWh together). Undefined when a counter is missing: an AC-coupled unit has no PV counter,
 * and the PV that reaches its home through another inverter is not in its registers.
 */
export function balancedLoadToday(state: State): number | undefined {
  const values = LOAD_BALANCE_INPUTS.map((key) => state[key]);
  if (!values.every((value): value is number => typeof value === "number")) return undefined;
  const [solar, imported, discharged, exported, charged] = values as [number, number, number, number, number];
  return Math.max(0, Math.round((solar + imported + discharged - exported - charged) * 10) / 10);
}
