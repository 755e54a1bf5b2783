import type { SystemData } from "../../cloud/index.js";
import type { InverterDevice } from "../../telemetry/index.js";
import { batteryLevel, current, frequency, power, reported, temperature, text, voltage } from "./sensors.js";
import type { DeviceDetails, EntityDef, StateValues } from "./types.js";
import { num } from "./values.js";

interface LiveField {
  readonly entity: EntityDef;
  readonly read: (data: SystemData) => unknown;
  /** Kept as text; every other field is a number. */
  readonly text?: boolean;
}

const diagnostic = { entity_category: "diagnostic" } as const;

/** Signs as the service sends them: grid positive when exporting, battery positive when discharging. */
const FIELDS: readonly LiveField[] = [
  {
    entity: text("status", "Status", { icon: "mdi:information-outline", ...diagnostic }),
    read: (d) => d.status,
    text: true,
  },
  { entity: power("solar_power", "Solar power", { icon: "mdi:solar-power" }), read: (d) => d.solar?.power },
  { entity: power("grid_power", "Grid power (export positive)"), read: (d) => d.grid?.power },
  { entity: voltage("grid_voltage", "Grid voltage", diagnostic), read: (d) => d.grid?.voltage },
  { entity: current("grid_current", "Grid current", diagnostic), read: (d) => d.grid?.current },
  { entity: frequency("grid_frequency", "Grid frequency", diagnostic), read: (d) => d.grid?.frequency },
  { entity: batteryLevel("battery_soc", "Battery level"), read: (d) => d.battery?.percent },
  { entity: power("battery_power", "Battery power (discharge positive)"), read: (d) => d.battery?.power },
  { entity: temperature("battery_temperature", "Battery temperature"), read: (d) => d.battery?.temperature },
  { entity: power("inverter_power", "Inverter power"), read: (d) => d.inverter?.power },
  { entity: temperature("inverter_temperature", "Inverter temperature"), read: (d) => d.inverter?.temperature },
  {
    entity: voltage("inverter_output_voltage", "Inverter output voltage", diagnostic),
    read: (d) => d.inverter?.output_voltage,
  },
  {
    entity: frequency("inverter_output_frequency", "Inverter output frequency", diagnostic),
    read: (d) => d.inverter?.output_frequency,
  },
  { entity: power("eps_power", "EPS power"), read: (d) => d.inverter?.eps_power },
  { entity: power("consumption_power", "Home consumption"), read: (d) => d.consumption },
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
  return [...FIELDS.map((field) => reported(field.entity)), ...arrays.flat()];
}

export function livePatch(data: SystemData): StateValues {
  const values: StateValues = {};
  for (const field of FIELDS) {
    const value = field.read(data);
    values[field.entity.key] = field.text ? (typeof value === "string" ? value : null) : num(value);
  }
  for (const array of data.solar?.arrays ?? []) {
    const prefix = `solar_array_${array.array}`;
    values[`${prefix}_power`] = num(array.power);
    values[`${prefix}_voltage`] = num(array.voltage);
    values[`${prefix}_current`] = num(array.current);
  }
  return values;
}

/** What live data tells about the inverter's layout. */
export function liveDetails(data: SystemData): DeviceDetails {
  const numbers = (data.solar?.arrays ?? []).map((array) => array.array);
  return { solarArrays: numbers.length === 0 ? 0 : Math.max(...numbers) };
}
