import { Subject } from "rxjs";
import { deviceIdOf } from "../../../vocabulary/device-id.js";
import type { Inventory } from "../../inventory.js";
import type { PollConfig } from "../../poll-config.js";
import type { Resource } from "../../resource.js";
import type { ResourceContext } from "../context.js";
import { emsResource } from "./ems.js";
import { evChargerResources } from "./ev-charger.js";
import { eventsResource } from "./events.js";
import { inverterResources } from "./inverter.js";
import { smartDeviceResource } from "./smart-device.js";

/**
 * Every resource to poll for the inventory. Battery modules are not polled: the communication
 * device listing that holds them changes only with the hardware, so discovery reads them.
 * An EMS's children get no live or counter polls (the EMS data carries their values), and
 * their fault events are read at start and when the EMS reports a change of their status.
 */
export function buildResources(context: ResourceContext, inventory: Inventory, poll: PollConfig): Resource[] {
  const childStatus = new Map<string, Subject<void>>();
  const resources: Resource[] = [];
  for (const inverter of inventory.inverters) {
    const id = deviceIdOf(inverter.serial);
    if (inverter.emsSerial === undefined) {
      resources.push(
        ...inverterResources(context, inverter, { live: poll.inverter, counters: poll.meter }),
        eventsResource(context, inverter.serial, id, { periodMs: poll.events }),
      );
    } else {
      const changed = new Subject<void>();
      childStatus.set(inverter.serial, changed);
      resources.push(eventsResource(context, inverter.serial, id, { triggers: changed }));
    }
  }
  for (const ems of inventory.ems) {
    resources.push(emsResource(context, ems, poll.ems, (serial) => childStatus.get(serial)?.next()));
  }
  for (const charger of inventory.evChargers) {
    resources.push(...evChargerResources(context, charger, { statusMs: poll.ev_charger, meterMs: poll.meter }));
  }
  for (const device of inventory.smartDevices) {
    resources.push(smartDeviceResource(context, device, poll.smart_device));
  }
  return resources;
}
