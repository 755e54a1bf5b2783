import type { State } from "../../local/index.js";
import {
  EMS_INVERTER_STATUS,
  EMS_METER_STATUS,
  EMS_METER_TYPE,
  EMS_STATUS,
  INVERTER_COUNTER_KEYS,
  INVERTER_LIVE_KEYS,
  isCalibrating,
  isEmsName,
  PV_INPUT_POWER,
  round,
  type StateValues,
  TODAY_PV_INPUT_ENERGY,
} from "../../vocabulary/index.js";

/*
 * Decoded registers (src/local/, already under the daemon's state keys, units and signs) as the
 * readings every path gives: the same keys a reading of that kind always carries (null where the
 * registers lack one), and statuses in the daemon's words.
 */

const num = (state: State, key: string): number | null => {
  const value = state[key];
  return typeof value === "number" ? value : null;
};

/** The registers' status code reads NORMAL; the daemon's status word is "Normal". */
function statusWord(status: State[string] | undefined): string | null {
  if (typeof status !== "string") return null;
  return status.charAt(0) + status.slice(1).toLowerCase();
}

/** The instant to the whole second, as the device's clock gives it. */
export const toSecond = (at: number): number => Math.floor(at / 1000) * 1000;

/** An inverter's live values; its solar arrays are those whose power the registers hold. */
export function liveValuesOf(state: State): StateValues {
  const values: StateValues = {};
  for (const key of INVERTER_LIVE_KEYS) values[key] = key === "status" ? statusWord(state.status) : num(state, key);
  // Only the LAN reads the calibration stage (the cloud shows none): the keys come only when it was read.
  const calibration = state.calibration;
  if (typeof calibration === "string") {
    values.calibration = calibration;
    values.calibrating = isCalibrating(calibration) ? "ON" : "OFF";
  }
  // An AC-coupled unit's PV input (0: it has none), for GivTCP's names: only when its model reads it.
  for (const key of [PV_INPUT_POWER, TODAY_PV_INPUT_ENERGY])
    if (state[key] !== undefined) values[key] = num(state, key);
  for (const array of [1, 2]) {
    const prefix = `solar_array_${array}`;
    if (state[`${prefix}_power`] === undefined) continue;
    values[`${prefix}_power`] = num(state, `${prefix}_power`);
    values[`${prefix}_voltage`] = num(state, `${prefix}_voltage`);
    values[`${prefix}_current`] = num(state, `${prefix}_current`);
  }
  return values;
}

/** An inverter's energy counters, kWh. */
export function counterValuesOf(state: State): StateValues {
  return Object.fromEntries(INVERTER_COUNTER_KEYS.map((key) => [key, num(state, key)]));
}

const named = (table: Readonly<Record<number, string>>, value: State[string] | undefined): string | null =>
  isEmsName(table, value) ? value : null;

/**
 * An EMS's values: the plant's (the registers have no car power, error or warning code), each
 * managed inverter whose status the tables name, and each meter slot that holds a meter.
 */
export function emsValuesOf(state: State, childSerials: readonly string[]): StateValues {
  const kwh = num(state, "battery_energy_remaining");
  const values: StateValues = {
    status: named(EMS_STATUS, state.status),
    battery_power: num(state, "battery_power"),
    // As the device counts it: whole Wh.
    battery_energy_remaining: kwh === null ? null : round(Math.round(kwh * 1000) / 1000),
    grid_power: num(state, "grid_power"),
    generation_power: num(state, "generation_power"),
    measured_load_power: num(state, "measured_load_power"),
    calculated_load_power: num(state, "calculated_load_power"),
    car_power: null,
    error_code: null,
    warning_code: null,
  };
  childSerials.forEach((_, index) => {
    const prefix = `inverter_${index + 1}`;
    const status = named(EMS_INVERTER_STATUS, state[`${prefix}_status`]);
    if (status === null) return;
    values[`${prefix}_power`] = num(state, `${prefix}_power`);
    values[`${prefix}_soc`] = num(state, `${prefix}_soc`);
    values[`${prefix}_temperature`] = num(state, `${prefix}_temperature`);
    values[`${prefix}_status`] = status;
  });
  const meters = Object.keys(state)
    .map((key) => Number(/^meter_(\d+)_power$/.exec(key)?.[1]))
    .filter((number) => Number.isInteger(number))
    .sort((a, b) => a - b);
  for (const number of meters) {
    const prefix = `meter_${number}`;
    values[`${prefix}_power`] = num(state, `${prefix}_power`);
    values[`${prefix}_status`] = named(EMS_METER_STATUS, state[`${prefix}_status`]);
    values[`${prefix}_type`] = named(EMS_METER_TYPE, state[`${prefix}_type`]);
  }
  return values;
}
