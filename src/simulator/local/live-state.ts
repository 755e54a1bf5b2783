import type { State, StateValue } from "../../local/index.js";
import type { EnergyTotalsBody, MeterDataBody, SystemDataBody } from "../house/bodies.js";
import type { InverterStatus } from "../house/index.js";

/*
 * The simulated house's values under the daemon's state keys (docs/entities.md), read from the
 * same bodies the cloud endpoints send, so that a dongle's registers and the cloud's answers
 * agree for the same instant. Keys with no value (null on the wire) are left out.
 */

function put(state: State, values: Record<string, StateValue | null | undefined>): State {
  for (const [key, value] of Object.entries(values)) if (value !== null && value !== undefined) state[key] = value;
  return state;
}

/**
 * The status an inverter shows on its own chain. LOST is the cloud's word for not hearing it; the
 * inverter itself runs normally.
 */
export function localStatus(status: InverterStatus | string): string {
  const upper = status.toUpperCase();
  return upper === "LOST" || upper === "UNKNOWN" ? "NORMAL" : upper;
}

/** system-data/latest under the live keys: signs as the cloud's (grid export positive, battery discharge positive). */
export function liveState(body: SystemDataBody): State {
  const state = put(
    {},
    {
      status: localStatus(body.status),
      solar_power: body.solar.power,
      grid_power: body.grid.power,
      grid_voltage: body.grid.voltage,
      grid_current: body.grid.current,
      grid_frequency: body.grid.frequency,
      battery_soc: body.battery.percent,
      battery_power: body.battery.power,
      battery_temperature: body.battery.temperature,
      inverter_power: body.inverter.power,
      inverter_temperature: body.inverter.temperature,
      inverter_output_voltage: body.inverter.output_voltage,
      inverter_output_frequency: body.inverter.output_frequency,
      eps_power: body.inverter.eps_power,
      consumption_power: body.consumption,
    },
  );
  for (const array of body.solar.arrays) {
    put(state, {
      [`solar_array_${array.array}_power`]: array.power,
      [`solar_array_${array.array}_voltage`]: array.voltage,
      [`solar_array_${array.array}_current`]: array.current,
    });
  }
  return state;
}

function totalsState(prefix: "today" | "total", totals: EnergyTotalsBody | null): State {
  if (!totals) return {};
  return {
    [`${prefix}_solar_energy`]: totals.solar,
    [`${prefix}_grid_import_energy`]: totals.grid.import,
    [`${prefix}_grid_export_energy`]: totals.grid.export,
    [`${prefix}_battery_charge_energy`]: totals.battery.charge,
    [`${prefix}_battery_discharge_energy`]: totals.battery.discharge,
    [`${prefix}_consumption_energy`]: totals.consumption,
    [`${prefix}_ac_charge_energy`]: totals.ac_charge,
  };
}

/** meter-data/latest under the counter keys, kWh. */
export function counterState(body: Pick<MeterDataBody, "today" | "total">): State {
  return { ...totalsState("today", body.today), ...totalsState("total", body.total) };
}
