import { z } from "zod";
import { emptyAsObject, list, numeric, obj, opt, timestamp } from "./common.js";

/*
 * Every value here may be null or missing: a gateway or a lost inverter has nothing to say for
 * some of them, and whole sections (`today`, `total`, `battery`) come as null, or as PHP's `[]`
 * for an empty object. Each section is an `obj`, which reads both as absent or empty.
 */

/** A measured value: a number (or numeric string), null or left out. */
const value = opt(numeric);

export const solarArray = z.object({
  array: z.number().int(),
  voltage: value,
  current: value,
  power: value,
});
export type SolarArray = z.infer<typeof solarArray>;

const solarShape = {
  power: value,
  arrays: list(solarArray),
};
export const solarPower = z.object(solarShape);

/** Grid power is positive when exporting, negative when importing. */
const gridShape = {
  voltage: value,
  current: value,
  power: value,
  frequency: value,
};
export const gridPower = z.object(gridShape);

/** Battery power is positive when discharging, negative when charging. */
const batteryShape = {
  percent: value,
  power: value,
  temperature: value,
};
export const batteryPower = z.object(batteryShape);

const inverterShape = {
  temperature: value,
  power: value,
  output_voltage: value,
  output_frequency: value,
  eps_power: value,
};
export const inverterPower = z.object(inverterShape);

/**
 * The data point resource has `consumption: {power}`; system-data/latest sends a plain number.
 * Either form reads as `{power}` here.
 */
export const consumptionPower = emptyAsObject(
  z.union([z.object({ power: value }), numeric.transform((power) => ({ power }))]),
);

const totalsShape = {
  solar: value,
  grid: obj({ import: value, export: value }),
  battery: obj({ charge: value, discharge: value }),
  consumption: value,
  /** Energy charged from the grid (AC charge); on the real service, not in the reference. */
  ac_charge: value,
};
/** Energy counters in kWh: today's or lifetime totals. */
export const energyTotals = z.object(totalsShape);
export type EnergyTotals = z.infer<typeof energyTotals>;

/** One 5-minute data point of GET /inverter/{serial}/data-points/{date}. */
export const inverterDataPoint = z.object({
  time: timestamp,
  /** Values seen: LOST, ERROR (and "Normal" in system-data); kept as sent. */
  status: opt(z.string()),
  power: obj({
    solar: obj(solarShape),
    grid: obj(gridShape),
    battery: obj(batteryShape),
    consumption: opt(consumptionPower),
    inverter: obj(inverterShape),
  }),
  today: obj(totalsShape),
  total: obj(totalsShape),
  is_metered: opt(z.boolean()),
});
export type InverterDataPoint = z.infer<typeof inverterDataPoint>;

/**
 * GET /inverter/{serial}/system-data/latest (API notes): live values at the top level,
 * `consumption` a plain number there (a `{power}` object is read as its power).
 */
export const systemData = z.object({
  /** Null or missing when the device has never reported. */
  time: opt(timestamp),
  status: opt(z.string()),
  solar: obj(solarShape),
  grid: obj(gridShape),
  battery: obj(batteryShape),
  inverter: obj(inverterShape),
  consumption: opt(consumptionPower.transform((consumption) => consumption.power)),
});
export type SystemData = z.infer<typeof systemData>;

/** GET /inverter/{serial}/meter-data/latest (API notes): today's and lifetime counters in kWh. */
export const meterData = z.object({
  /** Null or missing when the device has never reported. */
  time: opt(timestamp),
  today: obj(totalsShape),
  total: obj(totalsShape),
  is_metered: opt(z.boolean()),
});
export type MeterData = z.infer<typeof meterData>;

export const inverterFaultEvent = z.object({
  /** The fault name. */
  event: z.string(),
  start_time: timestamp,
  /** Null while the fault is not cleared. */
  end_time: opt(timestamp),
});
export type InverterFaultEvent = z.infer<typeof inverterFaultEvent>;

export const ENERGY_FLOW_GROUPINGS = {
  0: { name: "HALF_HOURLY", label: "Half Hourly", meaning: "30-minute intervals" },
  1: { name: "DAILY", label: "Daily", meaning: "24-hour intervals" },
  2: { name: "MONTHLY", label: "Monthly", meaning: "monthly intervals" },
  3: { name: "YEARLY", label: "Yearly", meaning: "yearly intervals" },
  4: { name: "TOTAL", label: "Total", meaning: "one interval from start to end" },
} as const;
export type EnergyFlowGrouping = keyof typeof ENERGY_FLOW_GROUPINGS;

export const ENERGY_FLOW_TYPES = {
  0: { name: "PV_TO_HOME", label: "PV to Home" },
  1: { name: "PV_TO_BATTERY", label: "PV to Battery" },
  2: { name: "PV_TO_GRID", label: "PV to Grid" },
  3: { name: "GRID_TO_HOME", label: "Grid to Home" },
  4: { name: "GRID_TO_BATTERY", label: "Grid to Battery" },
  5: { name: "BATTERY_TO_HOME", label: "Battery to Home" },
  6: { name: "BATTERY_TO_GRID", label: "Battery to Grid" },
} as const;
export type EnergyFlowType = keyof typeof ENERGY_FLOW_TYPES;

/**
 * `data` of an energy flow record: type ID as a string ("0".."6") to kWh. PHP encodes the keys
 * 0..6 in order as a JSON array and an empty map as `[]`, so an array reads as index -> value.
 * Null values (no data for that type) are left out.
 */
export const energyFlowValues = z.preprocess(
  (input) => (Array.isArray(input) ? Object.fromEntries(input.map((kwh, index) => [String(index), kwh])) : input),
  z.record(z.string().regex(/^\d+$/, "expected an energy flow type ID"), opt(numeric)).transform((values) => {
    const out: Record<string, number> = {};
    for (const [type, kwh] of Object.entries(values)) if (typeof kwh === "number") out[type] = kwh;
    return out;
  }),
);

export const energyFlowRecord = z.object({
  /** Local datetime (inverter's time), `YYYY-MM-DD hh:mm:ss`. */
  start_time: timestamp,
  end_time: timestamp,
  data: energyFlowValues,
});
export type EnergyFlowRecord = z.infer<typeof energyFlowRecord>;
