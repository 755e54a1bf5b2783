import { dongleOf, type InverterDevice } from "../telemetry/index.js";
import { type DiscoveryMessage, type DiscoveryOptions, identifier, valueTemplate } from "./discovery-values.js";
import { slug } from "./entities/index.js";

/**
 * The dongle's diagnostic entities: its connection type, and whether the cloud hears it.
 * Published before the inverters, so that Home Assistant knows the dongle as a device when
 * an inverter names it as via_device.
 */
const DONGLE_ENTITIES = [
  { key: "connection_type", component: "sensor", name: "Connection", icon: "mdi:access-point-network" },
  { key: "online", component: "binary_sensor", name: "Online", device_class: "connectivity" },
] as const;

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
