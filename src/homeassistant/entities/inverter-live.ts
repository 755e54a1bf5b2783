import type { InverterDevice } from "../../telemetry/index.js";
import { CALIBRATION_WORDS, highestNumbered, SOLAR_ARRAY_POWER, type StateValues } from "../../vocabulary/index.js";
import { CLOCK_DRIFT_ENTITY, CLOCK_PROBLEM_ENTITY, SYNC_CLOCK_ENTITY } from "./clock.js";
import {
  batteryLevel,
  binary,
  current,
  enumSensor,
  frequency,
  power,
  reported,
  temperature,
  text,
  voltage,
} from "./sensors.js";
import type { DeviceDetails, EntityDef } from "./types.js";

const diagnostic = { entity_category: "diagnostic" } as const;

/** The live values (src/vocabulary/inverter-keys.ts): grid positive when exporting, battery positive when discharging. */
const FIELDS: readonly EntityDef[] = [
  text("status", "Status", { icon: "mdi:information-outline", ...diagnostic }),
  power("solar_power", "Solar power", { icon: "mdi:solar-power" }),
  power("grid_power", "Grid power (export positive)"),
  voltage("grid_voltage", "Grid voltage", diagnostic),
  current("grid_current", "Grid current", diagnostic),
  frequency("grid_frequency", "Grid frequency", diagnostic),
  batteryLevel("battery_soc", "Battery level"),
  power("battery_power", "Battery power (discharge positive)"),
  temperature("battery_temperature", "Battery temperature"),
  power("inverter_power", "Inverter power"),
  temperature("inverter_temperature", "Inverter temperature"),
  voltage("inverter_output_voltage", "Inverter output voltage", diagnostic),
  frequency("inverter_output_frequency", "Inverter output frequency", diagnostic),
  power("eps_power", "EPS power"),
  power("consumption_power", "Home consumption"),
  // Read where the register map has it (the LAN's HR 29); while it runs the rules hold.
  enumSensor("calibration", "Battery calibration", CALIBRATION_WORDS, {
    icon: "mdi:battery-sync-outline",
    ...diagnostic,
  }),
  binary("calibrating", "Battery calibrating", "running", diagnostic),
];

/** AC-coupled models have no solar inputs; the usual hybrid has two. */
function solarArrayCount(device: InverterDevice, details: DeviceDetails | undefined): number {
  return details?.solarArrays ?? (/^GIV-AC/i.test(device.model) ? 0 : 2);
}

function arrayEntities(array: number): EntityDef[] {
  const prefix = `solar_array_${array}`;
  const name = `Solar array ${array}`;
  return [
    power(`${prefix}_power`, `${name} power`, { icon: "mdi:solar-power" }),
    voltage(`${prefix}_voltage`, `${name} voltage`, diagnostic),
    current(`${prefix}_current`, `${name} current`, diagnostic),
  ].map(reported);
}

export function liveEntities(device: InverterDevice, details?: DeviceDetails): EntityDef[] {
  const arrays = Array.from({ length: solarArrayCount(device, details) }, (_, index) => arrayEntities(index + 1));
  return [...FIELDS.map(reported), ...arrays.flat(), CLOCK_DRIFT_ENTITY, CLOCK_PROBLEM_ENTITY, SYNC_CLOCK_ENTITY];
}

/** What live values tell about the inverter's layout: its solar arrays. */
export function liveDetails(values: Readonly<StateValues>): DeviceDetails {
  return { solarArrays: highestNumbered(values, SOLAR_ARRAY_POWER) };
}
