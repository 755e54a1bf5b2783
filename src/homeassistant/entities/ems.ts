import type { EmsDevice } from "../../telemetry/index.js";
import {
  EMS_INVERTER_STATUS,
  EMS_METER_STATUS,
  EMS_METER_TYPE,
  EMS_STATUS,
  highestNumbered,
  type StateValues,
} from "../../vocabulary/index.js";
import { CLOCK_DRIFT_ENTITY, CLOCK_PROBLEM_ENTITY, SYNC_CLOCK_ENTITY } from "./clock.js";
import { batteryLevel, enumSensor, plain, power, reported, storedEnergy, temperature } from "./sensors.js";
import type { DeviceDetails, EntityDef } from "./types.js";

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
    CLOCK_DRIFT_ENTITY,
    CLOCK_PROBLEM_ENTITY,
  ]
    .map(reported)
    .concat(SYNC_CLOCK_ENTITY);
}

/** What an EMS's values tell about its plant: its meter slots. */
export function emsDetails(values: Readonly<StateValues>): DeviceDetails {
  return { emsMeters: highestNumbered(values, /^meter_(\d+)_power$/) };
}
