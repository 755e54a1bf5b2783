import {
  type EmsSystemData,
  type EnergyTotals,
  type MeterData,
  numericValue,
  type SystemData,
} from "../../cloud/index.js";
import { timestampMs } from "../../time/index.js";
import {
  COUNTER_PERIODS,
  EMS_INVERTER_STATUS,
  EMS_METER_STATUS,
  EMS_METER_TYPE,
  EMS_STATUS,
  emsCodeName,
  INVERTER_COUNTERS,
  INVERTER_LIVE_KEYS,
  round,
  type StateValues,
} from "../../vocabulary/index.js";

/*
 * The cloud's answers in the daemon's own words (src/vocabulary/): the state keys, units and
 * signs every path reads into. The cloud's signs are the daemon's already (grid positive
 * exporting, battery positive discharging) and its energies are kWh; its EMS codes are the
 * device's own numbering, named from the daemon's tables.
 */

/** A number, or null for anything else. */
const num = (value: unknown): number | null => numericValue(value) ?? null;

type LiveKey = (typeof INVERTER_LIVE_KEYS)[number];

const LIVE: Readonly<Record<LiveKey, (data: SystemData) => unknown>> = {
  status: (d) => d.status,
  solar_power: (d) => d.solar?.power,
  grid_power: (d) => d.grid?.power,
  grid_voltage: (d) => d.grid?.voltage,
  grid_current: (d) => d.grid?.current,
  grid_frequency: (d) => d.grid?.frequency,
  battery_soc: (d) => d.battery?.percent,
  battery_power: (d) => d.battery?.power,
  battery_temperature: (d) => d.battery?.temperature,
  inverter_power: (d) => d.inverter?.power,
  inverter_temperature: (d) => d.inverter?.temperature,
  inverter_output_voltage: (d) => d.inverter?.output_voltage,
  inverter_output_frequency: (d) => d.inverter?.output_frequency,
  eps_power: (d) => d.inverter?.eps_power,
  consumption_power: (d) => d.consumption,
};

/** An inverter's system data (or a data point's live part) as its live values. */
export function liveValuesOf(data: SystemData): StateValues {
  const values: StateValues = {};
  for (const key of INVERTER_LIVE_KEYS) {
    const value = LIVE[key](data);
    values[key] = key === "status" ? (typeof value === "string" ? value : null) : num(value);
  }
  for (const array of data.solar?.arrays ?? []) {
    const prefix = `solar_array_${array.array}`;
    values[`${prefix}_power`] = num(array.power);
    values[`${prefix}_voltage`] = num(array.voltage);
    values[`${prefix}_current`] = num(array.current);
  }
  return values;
}

type Counter = (typeof INVERTER_COUNTERS)[number];

const COUNTER: Readonly<Record<Counter, (totals: EnergyTotals) => unknown>> = {
  solar_energy: (t) => t.solar,
  grid_import_energy: (t) => t.grid?.import,
  grid_export_energy: (t) => t.grid?.export,
  battery_charge_energy: (t) => t.battery?.charge,
  battery_discharge_energy: (t) => t.battery?.discharge,
  consumption_energy: (t) => t.consumption,
  ac_charge_energy: (t) => t.ac_charge,
};

/** A data point's (or meter data's) energy counters, kWh. */
export function counterValuesOf(data: Pick<MeterData, "today" | "total">): StateValues {
  const values: StateValues = {};
  for (const period of COUNTER_PERIODS) {
    const totals = data[period];
    for (const counter of INVERTER_COUNTERS)
      values[`${period}_${counter}`] = totals ? num(COUNTER[counter](totals)) : null;
  }
  return values;
}

/**
 * An EMS's system data as its values: the plant's, then per inverter (`inverter_1_soc`) and per
 * meter (`meter_1_power`). Powers in W; the battery's Wh remaining as kWh. A code the tables do
 * not list reads as null.
 */
export function emsValuesOf(data: EmsSystemData): StateValues {
  const wh = num(data.battery_wh_remaining);
  const values: StateValues = {
    status: emsCodeName(EMS_STATUS, data.status) ?? null,
    battery_power: num(data.battery_power),
    battery_energy_remaining: wh === null ? null : round(wh / 1000),
    grid_power: num(data.grid_power),
    generation_power: num(data.total_generation),
    measured_load_power: num(data.measured_load_power),
    calculated_load_power: num(data.calculated_load_power),
    car_power: num(data.car_power),
    error_code: num(data.error_code),
    warning_code: num(data.warning_code),
  };
  for (const inverter of data.inverters) {
    const prefix = `inverter_${inverter.number}`;
    values[`${prefix}_power`] = num(inverter.active_power);
    values[`${prefix}_soc`] = num(inverter.soc);
    values[`${prefix}_temperature`] = num(inverter.temperature);
    values[`${prefix}_status`] = emsCodeName(EMS_INVERTER_STATUS, inverter.status) ?? null;
  }
  for (const meter of data.meters) {
    const prefix = `meter_${meter.number}`;
    values[`${prefix}_power`] = num(meter.active_power);
    values[`${prefix}_status`] = emsCodeName(EMS_METER_STATUS, meter.status) ?? null;
    values[`${prefix}_type`] = emsCodeName(EMS_METER_TYPE, meter.type) ?? null;
  }
  return values;
}

/** When the device measured what an answer carries (its `time`, in the account's zone); undefined without one. */
export function measuredAt(time: string | null | undefined, timeZone: string): number | undefined {
  if (!time) return undefined;
  const at = timestampMs(time, timeZone);
  return Number.isFinite(at) ? at : undefined;
}
