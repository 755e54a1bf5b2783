import {
  EMS_INVERTER_STATUS,
  EMS_METER_STATUS,
  EMS_METER_TYPE,
  EMS_STATUS,
  type EmsSystemData,
  emsCodeName,
} from "../../cloud/index.js";
import type { EmsDevice } from "../../telemetry/index.js";
import { batteryLevel, enumSensor, plain, power, reported, storedEnergy, temperature } from "./sensors.js";
import type { DeviceDetails, EntityDef, StateValues } from "./types.js";
import { num, round } from "./values.js";

const names = (table: Readonly<Record<number, string>>): string[] => Object.values(table);
const diagnostic = { entity_category: "diagnostic" } as const;

/** A grid meter and a generation meter, the usual plant, until the system data says otherwise. */
const DEFAULT_METERS = 2;

const PLANT: readonly EntityDef[] = [
  enumSensor("status", "Status", names(EMS_STATUS), { icon: "mdi:information-outline" }),
  power("battery_power", "Battery power (discharge positive)"),
  storedEnergy("battery_energy_remaining", "Battery energy remaining"),
  power("grid_power", "Grid power (export positive)"),
  power("generation_power", "Generation power", { icon: "mdi:solar-power" }),
  power("measured_load_power", "Measured load"),
  power("calculated_load_power", "Calculated load"),
  power("car_power", "Car charging power", { icon: "mdi:car-electric" }),
  plain("error_code", "Error code", { icon: "mdi:alert-circle-outline", ...diagnostic }),
  plain("warning_code", "Warning code", { icon: "mdi:alert-outline", ...diagnostic }),
];

function inverterEntities(number: number): EntityDef[] {
  const name = `Inverter ${number}`;
  return [
    power(`inverter_${number}_power`, `${name} power`),
    batteryLevel(`inverter_${number}_soc`, `${name} battery level`),
    temperature(`inverter_${number}_temperature`, `${name} temperature`, diagnostic),
    enumSensor(`inverter_${number}_status`, `${name} status`, names(EMS_INVERTER_STATUS), diagnostic),
  ];
}

function meterEntities(number: number): EntityDef[] {
  const name = `Meter ${number}`;
  return [
    power(`meter_${number}_power`, `${name} power`),
    enumSensor(`meter_${number}_status`, `${name} status`, names(EMS_METER_STATUS), diagnostic),
    enumSensor(`meter_${number}_type`, `${name} type`, names(EMS_METER_TYPE), diagnostic),
  ];
}

const count = (length: number): number[] => Array.from({ length }, (_, index) => index + 1);

/** The plant's values, then per inverter (`inverter_1_soc`) and per meter (`meter_1_power`). */
export function emsEntities(device: EmsDevice, details?: DeviceDetails): EntityDef[] {
  return [
    ...PLANT,
    ...count(device.inverterSerials.length).flatMap(inverterEntities),
    ...count(details?.emsMeters ?? DEFAULT_METERS).flatMap(meterEntities),
  ].map(reported);
}

/** Powers in W; the battery's Wh remaining as kWh. A code the tables do not list reads as unknown. */
export function emsPatch(data: EmsSystemData): StateValues {
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

export function emsDetails(data: EmsSystemData): DeviceDetails {
  const numbers = data.meters.map((meter) => meter.number);
  return { emsMeters: numbers.length === 0 ? 0 : Math.max(...numbers) };
}
