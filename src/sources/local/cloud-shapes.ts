import type { EnergyTotals, InverterDataPoint, SystemData } from "../../cloud/index.js";
import {
  EMS_INVERTER_STATUS,
  EMS_METER_STATUS,
  EMS_METER_TYPE,
  EMS_STATUS,
  type EmsSystemData,
} from "../../cloud/index.js";
import type { State } from "../../local/index.js";

/*
 * Decoded registers (src/local/, under the daemon's state keys) into the shapes the cloud sends,
 * so the fetched shape, Home Assistant's patches and the history read one answer whichever path
 * fetched it. Signs and units are the same on both sides (grid export positive, battery
 * discharge positive, energies in kWh); a key the registers lack stays null.
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
export function cloudTime(at: number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** An inverter's live values as system-data/latest has them. */
export function systemDataOf(state: State, at: number): SystemData {
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

/** The code a table gives this name, e.g. 2 for ONLINE in EMS_INVERTER_STATUS. */
function codeOf(table: Readonly<Record<number, string>>, name: string | null): number | undefined {
  if (name === null) return undefined;
  const found = Object.entries(table).find(([, value]) => value === name);
  return found ? Number(found[0]) : undefined;
}

/** An EMS's rollup as /ems/{serial}/system-data/latest has it (the battery's kWh back to Wh). */
export function emsSystemDataOf(state: State, childSerials: readonly string[], at: number): EmsSystemData {
  const kwh = num(state, "battery_energy_remaining");
  const inverters = childSerials.flatMap((serial, index) => {
    const prefix = `inverter_${index + 1}`;
    const status = codeOf(EMS_INVERTER_STATUS, text(state, `${prefix}_status`));
    if (status === undefined) return [];
    return [
      {
        number: index + 1,
        serial_number: serial,
        active_power: num(state, `${prefix}_power`),
        soc: num(state, `${prefix}_soc`),
        status,
        temperature: num(state, `${prefix}_temperature`),
      },
    ];
  });
  const meters = Object.keys(state)
    .map((key) => /^meter_(\d+)_power$/.exec(key)?.[1])
    .filter((number): number is string => number !== undefined)
    .map(Number)
    .sort((a, b) => a - b)
    .map((number) => ({
      number,
      active_power: num(state, `meter_${number}_power`),
      status: codeOf(EMS_METER_STATUS, text(state, `meter_${number}_status`)) ?? null,
      type: codeOf(EMS_METER_TYPE, text(state, `meter_${number}_type`)) ?? null,
    }));
  return {
    time: cloudTime(at),
    status: codeOf(EMS_STATUS, text(state, "status")) ?? null,
    battery_power: num(state, "battery_power"),
    battery_wh_remaining: kwh === null ? null : Math.round(kwh * 1000),
    calculated_load_power: num(state, "calculated_load_power"),
    car_power: null,
    grid_power: num(state, "grid_power"),
    measured_load_power: num(state, "measured_load_power"),
    total_generation: num(state, "generation_power"),
    error_code: null,
    warning_code: null,
    inverters,
    meters,
  };
}
