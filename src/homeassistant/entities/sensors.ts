import type { EntityDef } from "./types.js";

/** Builders for sensors whose device class, unit and state class follow Home Assistant's rules. */

type Extra = Pick<EntityDef, "icon" | "entity_category" | "enabled_by_default">;

const sensor = (key: string, name: string, fields: Omit<EntityDef, "key" | "name" | "component">): EntityDef => ({
  key,
  component: "sensor",
  name,
  ...fields,
});

export const power = (key: string, name: string, extra: Extra = {}): EntityDef =>
  sensor(key, name, { device_class: "power", unit: "W", state_class: "measurement", ...extra });

/** A counter in kWh that only grows (a daily counter's reset reads as a new cycle). */
export const energy = (key: string, name: string, extra: Extra = {}): EntityDef =>
  sensor(key, name, { device_class: "energy", unit: "kWh", state_class: "total_increasing", ...extra });

/** Energy held in a store (a battery), not a counter. */
export const storedEnergy = (key: string, name: string, extra: Extra = {}): EntityDef =>
  sensor(key, name, { device_class: "energy_storage", unit: "kWh", state_class: "measurement", ...extra });

export const batteryLevel = (key: string, name: string, extra: Extra = {}): EntityDef =>
  sensor(key, name, { device_class: "battery", unit: "%", state_class: "measurement", ...extra });

export const temperature = (key: string, name: string, extra: Extra = {}): EntityDef =>
  sensor(key, name, { device_class: "temperature", unit: "°C", state_class: "measurement", ...extra });

export const voltage = (key: string, name: string, extra: Extra = {}): EntityDef =>
  sensor(key, name, { device_class: "voltage", unit: "V", state_class: "measurement", ...extra });

export const current = (key: string, name: string, extra: Extra = {}): EntityDef =>
  sensor(key, name, { device_class: "current", unit: "A", state_class: "measurement", ...extra });

export const frequency = (key: string, name: string, extra: Extra = {}): EntityDef =>
  sensor(key, name, { device_class: "frequency", unit: "Hz", state_class: "measurement", ...extra });

/** A state from a fixed list; Home Assistant refuses a state outside `options`. */
export const enumSensor = (key: string, name: string, options: readonly string[], extra: Extra = {}): EntityDef =>
  sensor(key, name, { device_class: "enum", options, ...extra });

/** An ISO 8601 moment with its zone. */
export const timestamp = (key: string, name: string, extra: Extra = {}): EntityDef =>
  sensor(key, name, { device_class: "timestamp", ...extra });

export const text = (key: string, name: string, extra: Extra = {}): EntityDef => sensor(key, name, { ...extra });

/** A plain number with an optional unit of its own (Ah, cycles) and no device class. */
export const plain = (
  key: string,
  name: string,
  fields: Pick<EntityDef, "unit" | "state_class"> & Extra = {},
): EntityDef => sensor(key, name, fields);

/** The entity is announced only once the device has reported a value for it. */
export const reported = (entity: EntityDef): EntityDef => ({ ...entity, requiresData: true });

export const binary = (key: string, name: string, deviceClass?: string, extra: Extra = {}): EntityDef => ({
  key,
  component: "binary_sensor",
  name,
  ...(deviceClass === undefined ? {} : { device_class: deviceClass }),
  ...extra,
});
