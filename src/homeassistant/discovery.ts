import {
  type Device,
  deviceId,
  deviceName,
  devicesOf,
  dongleOf,
  type Inventory,
  type InverterDevice,
} from "../telemetry/index.js";
import { deviceIdOf } from "../vocabulary/device-id.js";
import {
  type DiscoveryMessage,
  type DiscoveryOptions,
  identifier,
  keyAvailabilityTemplate,
  valueTemplate,
} from "./discovery-values.js";
import { dongleDiscoveryMessages } from "./dongle-discovery.js";
import { type EntityDef, entitiesFor, slug } from "./entities/index.js";
import { givtcpDiscovery } from "./givtcp/discovery.js";

export {
  type DiscoveryMessage,
  type DiscoveryOptions,
  type Origin,
  type RemovalMessage,
  valueTemplate,
} from "./discovery-values.js";
export { dongleDiscoveryMessages, dongleState } from "./dongle-discovery.js";

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

function dongleMessages(inventory: Inventory, options: DiscoveryOptions): DiscoveryMessage[] {
  return inventory.inverters.flatMap((inverter) => dongleDiscoveryMessages(inverter, options));
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
      ...(entity.component === "button"
        ? []
        : [
            {
              topic: topics.deviceState(id),
              value_template: keyAvailabilityTemplate(entity.key),
              payload_available: "online",
              payload_not_available: "offline",
            },
          ]),
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
  const details = options.details?.(id);
  const entities = entitiesFor(device, details);
  const own = entities.map((entity) => ({
    topic: options.topics.discovery(entity.component, id, entity.key),
    payload: payloadFor(device, entity, inventory, options),
  }));
  if (options.naming !== "givtcp" || device.kind !== "inverter") return own;
  // GivTCP's first instance is the gateway or the inverter it controls; inverters behind them come after.
  const rank = (inverter: InverterDevice) =>
    (/gateway/i.test(inverter.model) ? 4 : 0) +
    (inverter.controllable ? 2 : 0) +
    (inverter.emsSerial === undefined ? 1 : 0);
  const ranked = [...inventory.inverters].sort((a, b) => rank(b) - rank(a));
  const index = ranked.findIndex((inverter) => inverter.serial === device.serial);
  const givtcp = givtcpDiscovery({
    prefix: index > 0 ? `givtcp${index + 1}` : "givtcp",
    serial: device.serial,
    entities,
    payloadOf: (entity) => payloadFor(device, entity, inventory, options),
    discoveryTopic: (component, key) => options.topics.discovery(component, id, key),
    commandTopic: (key) => options.topics.command(id, key),
    valueTemplate,
    availabilityTemplate: keyAvailabilityTemplate,
    reported: (key) => details?.seenKeys?.includes(key) ?? false,
  });
  return [...own, ...givtcp];
}
