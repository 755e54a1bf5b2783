import type { State } from "../../local/index.js";
import type { InverterPoint, InverterPointTotals } from "../../vocabulary/index.js";
import { toSecond } from "./readings.js";

/*
 * Decoded registers as the history's 5-minute points (src/vocabulary/inverter-point.ts), made
 * from the registers' values in the daemon's words, whose signs and units the points share; a key
 * the registers lack stays null.
 */

const num = (state: State, key: string): number | null => {
  const value = state[key];
  return typeof value === "number" ? value : null;
};

/** The registers name their status NORMAL where the history's points, as the cloud wrote them first, say "Normal". */
function pointStatus(state: State): string | null {
  const status = state.status;
  if (typeof status !== "string") return null;
  return status.charAt(0) + status.slice(1).toLowerCase();
}

function totalsOf(state: State, period: "today" | "total"): InverterPointTotals {
  const energy = (name: string): number | null => num(state, `${period}_${name}_energy`);
  return {
    solar: energy("solar"),
    grid: { import: energy("grid_import"), export: energy("grid_export") },
    battery: { charge: energy("battery_charge"), discharge: energy("battery_discharge") },
    consumption: energy("consumption"),
    ac_charge: energy("ac_charge"),
  };
}

/** The registers' live values and counters now as a point of the history, at the whole second (as its rows are). */
export function inverterPointOf(state: State, at: number): InverterPoint {
  const arrays = [1, 2]
    .filter((array) => state[`solar_array_${array}_power`] !== undefined)
    .map((array) => ({
      array,
      voltage: num(state, `solar_array_${array}_voltage`),
      current: num(state, `solar_array_${array}_current`),
      power: num(state, `solar_array_${array}_power`),
    }));
  return {
    measuredAt: toSecond(at),
    data: {
      status: pointStatus(state),
      power: {
        solar: { power: num(state, "solar_power"), arrays },
        grid: {
          voltage: num(state, "grid_voltage"),
          current: num(state, "grid_current"),
          power: num(state, "grid_power"),
          frequency: num(state, "grid_frequency"),
        },
        battery: {
          percent: num(state, "battery_soc"),
          power: num(state, "battery_power"),
          temperature: num(state, "battery_temperature"),
        },
        consumption: { power: num(state, "consumption_power") },
        inverter: {
          temperature: num(state, "inverter_temperature"),
          power: num(state, "inverter_power"),
          output_voltage: num(state, "inverter_output_voltage"),
          output_frequency: num(state, "inverter_output_frequency"),
          eps_power: num(state, "eps_power"),
        },
      },
      today: totalsOf(state, "today"),
      total: totalsOf(state, "total"),
    },
  };
}
