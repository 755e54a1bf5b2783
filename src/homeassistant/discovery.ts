import { deviceIdOf } from "../device-id.js";
import {
  type Device,
  deviceId,
  deviceName,
  devicesOf,
  dongleOf,
  type Inventory,
  type InverterDevice,
} from "../telemetry/inventory.js";
import { type DeviceDetails, type EntityDef, entitiesFor, slug } from "./entities/index.js";
import type { Topics } from "./topics.js";

export interface Origin {
  readonly name: string;
  readonly sw_version: string;
  readonly support_url: string;
}

export interface DiscoveryOptions {
  readonly topics: Topics;
  readonly origin: Origin;
  /** Layout learnt from readings (solar arrays, EMS meters, EV modes), by deviceId(). */
  readonly details?: (deviceId: string) => DeviceDetails | undefined;
}

export interface DiscoveryMessage {
  readonly topic: string;
  readonly payload: Record<string, unknown>;
}

/** Published retained, an empty payload removes the entity from Home Assistant. */
export interface RemovalMessage {
  readonly topic: string;
  readonly payload: "";
}

const identifier = (id: string): string => `energy2mqtt_${id}`;

/**
 * The key's value, or none (Home Assistant's unknown, without a template warning) should the
 * key ever be missing: states are published complete, this is the second line of defence.
 */
export const valueTemplate = (key: string): string => `{{ value_json.${key} | default(none) }}`;

/** The start of entity IDs: from serials, which do not change when the user renames a device. */
function entityBase(device: Device): string {
  switch (device.kind) {
    case "inverter":
      return `inverter_${slug(device.serial)}`;
    case "ems":
      return `ems_${slug(device.serial)}`;
    case "ev_charger":
      return `ev_charger_${slug(device.serial)}`;
    case "smart_device":
      return `smart_device_${slug(device.alias) || slug(device.uuid.slice(0, 8))}`;
  }
}

function firmware(device: Device): string | undefined {
  if (device.kind !== "inverter") return undefined;
  const parts = [
    device.firmware.arm == null ? undefined : `ARM ${device.firmware.arm}`,
    device.firmware.dsp == null ? undefined : `DSP ${device.firmware.dsp}`,
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(", ") : undefined;
}

/** An EMS child points at its EMS; a stand-alone inverter at its dongle, published as a device first. */
function viaDevice(device: Device, inventory: Inventory): string | undefined {
  if (device.kind !== "inverter") return undefined;
  if (device.emsSerial === undefined) {
    const dongle = dongleOf(device);
    return dongle ? identifier(dongle.id) : undefined;
  }
  const ems = inventory.ems.find(
    (one) => device.emsSerial !== undefined && deviceId(one) === deviceIdOf(device.emsSerial),
  );
  return ems ? identifier(deviceId(ems)) : undefined;
}

/**
 * The dongle's diagnostic entities: its connection type, and whether the cloud hears it.
 * Published before the inverters, so that Home Assistant knows the dongle as a device when
 * an inverter names it as via_device.
 */
const DONGLE_ENTITIES = [
  { key: "connection_type", component: "sensor", name: "Connection", icon: "mdi:access-point-network" },
  { key: "online", component: "binary_sensor", name: "Online", device_class: "connectivity" },
] as const;

function dongleMessages(inventory: Inventory, options: DiscoveryOptions): DiscoveryMessage[] {
  return inventory.inverters.flatMap((inverter) => dongleDiscoveryMessages(inverter, options));
}

/** The configs of an inverter's dongle, a device of its own; none for an EMS child. */
export function dongleDiscoveryMessages(inverter: InverterDevice, options: DiscoveryOptions): DiscoveryMessage[] {
  {
    const dongle = dongleOf(inverter);
    if (!dongle) return [];
    const firmware = inverter.firmware.dongle;
    const device = {
      identifiers: [identifier(dongle.id)],
      name: `Dongle ${dongle.serial}`,
      manufacturer: "GivEnergy",
      model: inverter.dongleType ? `${inverter.dongleType} dongle` : "Dongle",
      serial_number: dongle.serial,
      ...(firmware == null ? {} : { sw_version: String(firmware) }),
    };
    return DONGLE_ENTITIES.map((entity) => ({
      topic: options.topics.discovery(entity.component, dongle.id, entity.key),
      payload: {
        name: entity.name,
        unique_id: `${identifier(dongle.id)}_${entity.key}`,
        default_entity_id: `${entity.component}.dongle_${slug(dongle.serial)}_${entity.key}`,
        ...("device_class" in entity ? { device_class: entity.device_class } : {}),
        entity_category: "diagnostic",
        ...("icon" in entity ? { icon: entity.icon } : {}),
        state_topic: options.topics.deviceState(dongle.id),
        value_template: valueTemplate(entity.key),
        ...(entity.component === "binary_sensor" ? { payload_on: "ON", payload_off: "OFF" } : {}),
        availability: [
          {
            topic: options.topics.bridgeState,
            value_template: "{{ value_json.state }}",
            payload_available: "online",
            payload_not_available: "offline",
          },
        ],
        device,
        origin: { ...options.origin },
      },
    }));
  }
}

/**
 * The dongle's state: its connection type, and online unless the cloud reports its inverter
 * lost (`online` false) or has not said yet (undefined: the inverter's status in the listing).
 */
export function dongleState(
  inverter: InverterDevice,
  online?: boolean,
): { device: string; values: Record<string, string | null> } | undefined {
  const dongle = dongleOf(inverter);
  if (!dongle) return undefined;
  const heard = online ?? (inverter.status === undefined ? undefined : !/^(lost|offline)$/i.test(inverter.status));
  return {
    device: dongle.id,
    values: {
      connection_type: inverter.dongleType ?? "unknown",
      online: heard === undefined ? null : heard ? "ON" : "OFF",
    },
  };
}

function deviceBlock(device: Device, inventory: Inventory): Record<string, unknown> {
  const block: Record<string, unknown> = {
    identifiers: [identifier(deviceId(device))],
    name: deviceName(device),
    manufacturer: "GivEnergy",
  };
  const model =
    device.kind === "inverter" || device.kind === "ems"
      ? device.model
      : device.kind === "ev_charger"
        ? device.type
        : "Smart device";
  if (model) block.model = model;
  if (device.kind !== "smart_device") block.serial_number = device.serial;
  const sw = firmware(device);
  if (sw) block.sw_version = sw;
  const via = viaDevice(device, inventory);
  if (via) block.via_device = via;
  return block;
}

/** Home Assistant fields of the entity, in a fixed order. */
function entityFields(entity: EntityDef): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (entity.device_class !== undefined) fields.device_class = entity.device_class;
  if (entity.unit !== undefined) fields.unit_of_measurement = entity.unit;
  if (entity.state_class !== undefined) fields.state_class = entity.state_class;
  if (entity.entity_category !== undefined) fields.entity_category = entity.entity_category;
  if (entity.icon !== undefined) fields.icon = entity.icon;
  if (entity.enabled_by_default === false) fields.enabled_by_default = false;
  if (entity.options !== undefined) fields.options = [...entity.options];
  return fields;
}

function componentFields(entity: EntityDef): Record<string, unknown> {
  switch (entity.component) {
    case "switch":
      return { payload_on: "ON", payload_off: "OFF", state_on: "ON", state_off: "OFF" };
    case "binary_sensor":
      return { payload_on: "ON", payload_off: "OFF" };
    case "number":
      return { min: entity.min, max: entity.max, step: entity.step, mode: entity.mode ?? "auto" };
    case "button":
      return { payload_press: "PRESS" };
    default:
      return {};
  }
}

function payloadFor(
  device: Device,
  entity: EntityDef,
  inventory: Inventory,
  options: DiscoveryOptions,
): Record<string, unknown> {
  const { topics } = options;
  const id = deviceId(device);
  return {
    name: entity.name,
    unique_id: `${identifier(id)}_${entity.key}`,
    default_entity_id: `${entity.component}.${entityBase(device)}_${entity.key}`,
    ...entityFields(entity),
    ...(entity.component === "button"
      ? {}
      : { state_topic: topics.deviceState(id), value_template: valueTemplate(entity.key) }),
    ...(entity.command ? { command_topic: topics.command(id, entity.key) } : {}),
    ...componentFields(entity),
    availability: [
      {
        topic: topics.bridgeState,
        value_template: "{{ value_json.state }}",
        payload_available: "online",
        payload_not_available: "offline",
      },
      { topic: topics.availability(id), payload_available: "online", payload_not_available: "offline" },
    ],
    availability_mode: "all",
    device: deviceBlock(device, inventory),
    origin: {
      name: options.origin.name,
      sw_version: options.origin.sw_version,
      support_url: options.origin.support_url,
    },
  };
}

/** Retained discovery configs for every entity of every device of the inventory. */
export function discoveryMessages(inventory: Inventory, options: DiscoveryOptions): DiscoveryMessage[] {
  return [...dongleMessages(inventory, options), ...deviceMessages(inventory, options)];
}

function deviceMessages(inventory: Inventory, options: DiscoveryOptions): DiscoveryMessage[] {
  return devicesOf(inventory).flatMap((device) => deviceDiscoveryMessages(device, inventory, options));
}

/** Retained discovery configs for the entities of one device. */
export function deviceDiscoveryMessages(
  device: Device,
  inventory: Inventory,
  options: DiscoveryOptions,
): DiscoveryMessage[] {
  const id = deviceId(device);
  return entitiesFor(device, options.details?.(id)).map((entity) => ({
    topic: options.topics.discovery(entity.component, id, entity.key),
    payload: payloadFor(device, entity, inventory, options),
  }));
}
