import type { EnergyTotals, InverterDataPoint, SystemData } from "../../cloud/index.js";
import type { State } from "../../local/index.js";

/*
 * Decoded registers as the history's 5-minute points. The history keeps its points in the
 * cloud's data-point shape (its archive, backfill and the savings read them so), so the LAN
 * writes its own in that shape too: this is the one place the LAN speaks the cloud's words, for
 * the history alone (the readings themselves are in the daemon's, ./readings.ts). Signs and
 * units are the same on both sides; a key the registers lack stays null.
 */

const num = (state: State, key: string): number | null => {
  const value = state[key];
  return typeof value === "number" ? value : null;
};

const text = (state: State, key: string): string | null => {
  const value = state[key];
  return typeof value === "string" ? value : null;
};

/** The cloud's live status reads "Normal" where the registers' code reads NORMAL. */
function cloudStatus(status: string | null): string | null {
  if (status === null) return null;
  return status.charAt(0) + status.slice(1).toLowerCase();
}

/** The instant as the cloud writes it (UTC, no fraction). */
function cloudTime(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** An inverter's live values as system-data/latest has them. */
function systemDataOf(state: State, at: number): SystemData {
  const arrays = [1, 2]
    .filter((array) => state[`solar_array_${array}_power`] !== undefined)
    .map((array) => ({
      array,
      voltage: num(state, `solar_array_${array}_voltage`),
      current: num(state, `solar_array_${array}_current`),
      power: num(state, `solar_array_${array}_power`),
    }));
  return {
    time: cloudTime(at),
    status: cloudStatus(text(state, "status")),
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
    inverter: {
      temperature: num(state, "inverter_temperature"),
      power: num(state, "inverter_power"),
      output_voltage: num(state, "inverter_output_voltage"),
      output_frequency: num(state, "inverter_output_frequency"),
      eps_power: num(state, "eps_power"),
    },
    consumption: num(state, "consumption_power"),
  };
}

function totalsOf(state: State, period: "today" | "total"): EnergyTotals {
  const energy = (name: string): number | null => num(state, `${period}_${name}_energy`);
  return {
    solar: energy("solar"),
    grid: { import: energy("grid_import"), export: energy("grid_export") },
    battery: { charge: energy("battery_charge"), discharge: energy("battery_discharge") },
    consumption: energy("consumption"),
    ac_charge: energy("ac_charge"),
  };
}

/** One data point (live values and counters) as the data-points resource has them, for the counters and the history. */
export function dataPointOf(state: State, at: number): InverterDataPoint {
  const live = systemDataOf(state, at);
  return {
    time: cloudTime(at),
    status: live.status,
    power: {
      solar: live.solar,
      grid: live.grid,
      battery: live.battery,
      consumption: { power: live.consumption ?? null },
      inverter: live.inverter,
    },
    today: totalsOf(state, "today"),
    total: totalsOf(state, "total"),
  };
}
