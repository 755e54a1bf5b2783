import type { EntityDef } from "../entities/index.js";
import { GIVTCP_MODE_COMMAND, GIVTCP_MODES, GIVTCP_NAMES, type GivTcpName } from "./names.js";

/** Every minute of the day as GivTCP's time-slot selects offer it: "00:00:00" to "23:59:00". */
export const GIVTCP_TIME_SLOTS: readonly string[] = Array.from({ length: 24 * 60 }, (_, minute) => {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(Math.floor(minute / 60))}:${two(minute % 60)}:00`;
});

/** What the builder needs of the daemon's own discovery for one device. */
export interface GivTcpContext {
  /** `givtcp` for the first inverter, `givtcp2`, `givtcp3`... for the others, as GivTCP's instances. */
  readonly prefix: string;
  readonly serial: string;
  /** The device's own entities, as discovery announces them. */
  readonly entities: readonly EntityDef[];
  /** The own entity's discovery payload. */
  readonly payloadOf: (entity: EntityDef) => Record<string, unknown>;
  /** The discovery topic for a component and key; the command topic for a key. */
  readonly discoveryTopic: (component: string, key: string) => string;
  readonly commandTopic: (key: string) => string;
  readonly valueTemplate: (key: string) => string;
  readonly availabilityTemplate: (key: string) => string;
  /** Whether the device has reported a value for a state key (one with no own entity too). */
  readonly reported: (key: string) => boolean;
}

/** The own entity a GivTCP name reads and writes, and the state key its value is under. */
function backing(
  name: GivTcpName,
  entities: ReadonlyMap<string, EntityDef>,
  reported: (key: string) => boolean,
): { readonly entity: EntityDef; readonly stateKey: string } | undefined {
  const source = name.source;
  const derived = `givtcp_${name.name}`;
  // A value with no own entity of its own is announced on the device's status, which every inverter reads.
  const status = entities.get("status");
  switch (source.kind) {
    case "alias": {
      const entity = source.keys.map((key) => entities.get(key)).find((one) => one !== undefined);
      return entity ? { entity, stateKey: entity.key } : undefined;
    }
    case "labels": {
      const entity = source.keys.map((key) => entities.get(key)).find((one) => one !== undefined);
      return entity ? { entity, stateKey: derived } : undefined;
    }
    case "pv": {
      const entity = entities.get(source.own);
      if (entity) return { entity, stateKey: entity.key };
      return status && reported(source.input) ? { entity: status, stateKey: source.input } : undefined;
    }
    case "soc-kwh": {
      const entity = entities.get("battery_capacity");
      return entity && entities.has("battery_soc") ? { entity, stateKey: derived } : undefined;
    }
    case "mode": {
      // The eco switch, or on a device without one (the three-phase) its timed export.
      const entity = entities.get("eco_mode") ?? entities.get("timed_export");
      return entity ? { entity, stateKey: derived } : undefined;
    }
    case "clock": {
      // The LAN reads the inverter's clock (its drift); the cloud stamps its readings (./state.ts).
      const entity = entities.get("clock_drift") ?? (reported(derived) ? status : undefined);
      return entity ? { entity, stateKey: derived } : undefined;
    }
  }
}

/** Home Assistant fields of the GivTCP entity that differ from the own entity it stands on. */
function fieldsOf(name: GivTcpName, own: EntityDef, context: GivTcpContext): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (name.device_class !== undefined) fields.device_class = name.device_class;
  if (name.unit !== undefined) fields.unit_of_measurement = name.unit;
  if (name.state_class !== undefined) fields.state_class = name.state_class;
  if (name.component === "select") {
    if (name.source.kind === "mode") {
      fields.options = [...GIVTCP_MODES];
      fields.command_topic = context.commandTopic(GIVTCP_MODE_COMMAND);
    } else if (name.source.kind === "labels") {
      const labels = name.source.labels;
      fields.options = Object.keys(labels);
      const map = Object.entries(labels).map(
        ([givtcp, label]) => `${JSON.stringify(givtcp)}: ${JSON.stringify(label)}`,
      );
      fields.command_template = `{{ {${map.join(", ")}}.get(value, value) }}`;
    } else {
      fields.options = [...GIVTCP_TIME_SLOTS];
    }
  }
  if (name.component === "number") {
    fields.min = own.min;
    fields.max = own.max;
    fields.step = own.step;
    fields.mode = own.mode ?? "auto";
  }
  return fields;
}

/** Fields of the own payload that say what the own entity is, left out of its GivTCP twin. */
const OWN_ONLY = [
  "name",
  "unique_id",
  "default_entity_id",
  "device_class",
  "unit_of_measurement",
  "state_class",
  "entity_category",
  "icon",
  "enabled_by_default",
  "options",
  "value_template",
  "availability",
  "min",
  "max",
  "step",
  "mode",
] as const;

/** A switch's payload fields, left out when the GivTCP entity is another component. */
const SWITCH_ONLY = ["payload_on", "payload_off", "state_on", "state_off"] as const;

/**
 * A sensor GivTCP names that the device cannot give on the path in use (an AC-coupled unit's load
 * today over the LAN, a gateway's daily counters over the cloud) stands on the device's status
 * entity under its own key, which the state does not carry: announced all the same and
 * unavailable, so an owner's dashboards, automations and long-term statistics keyed on GivTCP's
 * entity ID keep it (Home Assistant logs nothing of a missing entity), and Predbat reads
 * "unavailable" as no reading rather than as 0.
 */
function notGivenSensor(
  name: GivTcpName,
  entities: ReadonlyMap<string, EntityDef>,
): { readonly entity: EntityDef; readonly stateKey: string } | undefined {
  const status = entities.get("status");
  return name.component === "sensor" && status ? { entity: status, stateKey: `givtcp_${name.name}` } : undefined;
}

/**
 * Discovery configs for the entities Predbat's GivTCP template names, beside the device's own:
 * GivTCP's entity IDs (`<component>.givtcp_<serial>_<name>`), domains, units and options, each
 * reading the same state JSON and commanding through the own entity's command topic (the mode
 * through its own command). A sensor the device cannot give on this path is announced unavailable
 * (notGivenSensor); a control whose own entity the device lacks is not announced.
 */
export function givtcpDiscovery(context: GivTcpContext): { topic: string; payload: Record<string, unknown> }[] {
  const entities = new Map(context.entities.map((entity) => [entity.key, entity]));
  const serial = context.serial.toLowerCase();
  return GIVTCP_NAMES.flatMap((name) => {
    const given = backing(name, entities, context.reported);
    const found = given ?? notGivenSensor(name, entities);
    if (!found) return [];
    const own = context.payloadOf(found.entity);
    const rest = Object.fromEntries(
      Object.entries(own).filter(([field]) => !(OWN_ONLY as readonly string[]).includes(field)),
    );
    const availability = Array.isArray(own.availability) ? own.availability.slice(0, 2) : [];
    const key = `givtcp_${name.name}`;
    const payload: Record<string, unknown> = {
      name: name.title,
      unique_id: `${String(own.unique_id).replace(new RegExp(`_${found.entity.key}$`), "")}_${key}`,
      default_entity_id: `${name.component}.${context.prefix}_${serial}_${name.name}`,
      ...rest,
      value_template: context.valueTemplate(found.stateKey),
      ...fieldsOf(name, found.entity, context),
      ...(given
        ? {}
        : {
            json_attributes_topic: own.state_topic,
            json_attributes_template: "{{ {'not_given': value_json.givtcp_not_given} | tojson }}",
          }),
      availability: [
        ...availability,
        {
          topic: own.state_topic,
          value_template: context.availabilityTemplate(found.stateKey),
          payload_available: "online",
          payload_not_available: "offline",
        },
      ],
    };
    if (name.component !== found.entity.component) for (const field of SWITCH_ONLY) delete payload[field];
    return [{ topic: context.discoveryTopic(name.component, key), payload }];
  });
}
