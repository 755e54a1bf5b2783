import type { EventBus } from "../bus/event-bus.js";
import type { Config } from "../config/index.js";
import {
  type ChargerControl,
  firstAnswering,
  firstCarrying,
  type Inventory,
  type LocalSource,
  type ModbusChargers,
  modbusChargerControl,
  type OcppChargers,
  ocppChargerControl,
  type Resource,
  withChargers,
} from "../sources/index.js";
import type { Clock } from "../time/index.js";
import { configuredChargers } from "./configured-chargers.js";

/**
 * The EV chargers' own paths on the LAN side, in the order they are trusted (OCPP while its charge
 * point is connected, then Modbus): their readings beside the dongles', their commands, and under
 * `source: local` the chargers themselves (named by the configuration) with their Path said local
 * once a reading comes (under `auto`, the path choice says it).
 */
export function chargerPaths(options: {
  readonly config: Config;
  readonly ocpp: OcppChargers | undefined;
  readonly modbus: ModbusChargers | undefined;
  readonly bus: EventBus;
  readonly clock: Clock;
}): {
  readonly onLan: (local: LocalSource) => LocalSource;
  readonly control: ChargerControl | undefined;
  /** The charger's own path carrying it now, in the order they are trusted; undefined: neither (the cloud, if any). */
  readonly pathOf: (uuid: string) => "OCPP" | "Modbus" | undefined;
} {
  const { config, ocpp, modbus, bus, clock } = options;
  const alone = config.source === "local";
  const resources = (inventory: Inventory): Resource[] => {
    const merged = firstAnswering([ocpp?.resources(inventory) ?? [], modbus?.resources(inventory) ?? []]);
    if (!alone) return merged;
    return merged.map((resource) =>
      resource.of?.kind === "ev.status"
        ? saidLocalOnceAnswered(resource, (device) =>
            bus.emit("devicePath", { device, path: "local", at: clock.now() }),
          )
        : resource,
    );
  };
  const named = [
    ...(ocpp ? [{ path: "OCPP" as const, control: ocppChargerControl(ocpp) }] : []),
    ...(modbus ? [{ path: "Modbus" as const, control: modbusChargerControl(modbus) }] : []),
  ];
  const controls = named.map(({ control }) => control);
  return {
    onLan: (local) =>
      ocpp || modbus
        ? withChargers(local, { ...(alone ? { chargers: configuredChargers(config) } : {}), resources })
        : local,
    control: controls.length > 0 ? firstCarrying(controls) : undefined,
    pathOf: (uuid) => named.find(({ control }) => control.carries(uuid))?.path,
  };
}

/** A charger's status resource that tells `say` its devices once it first gives a reading. */
function saidLocalOnceAnswered(resource: Resource, say: (device: Resource["devices"][number]) => void): Resource {
  let said = false;
  return {
    ...resource,
    async poll(signal) {
      const result = await resource.poll(signal);
      if (!said && result.fetched) {
        said = true;
        for (const device of resource.devices) say(device);
      }
      return result;
    },
  };
}
