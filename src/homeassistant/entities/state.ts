import type { Availability, DeviceState } from "../../telemetry/index.js";
import { type Device, deviceId } from "../../telemetry/index.js";
import { type DeviceId, deviceIdOf } from "../../vocabulary/device-id.js";
import { batteryModuleState, batteryState } from "./battery-modules.js";
import { emsDetails } from "./ems.js";
import { evSessionPatch } from "./ev-sensors.js";
import { eventPatch } from "./inverter-events.js";
import { liveDetails } from "./inverter-live.js";
import { smartDevicePatch } from "./smart-device.js";
import type { DeviceDetails, StateValue, StateValues } from "./types.js";

export interface StatePatch {
  readonly device: DeviceId;
  readonly values: StateValues;
}

/** deviceId() from a reading's serial or uuid. */
const idOf = deviceIdOf;

/**
 * A reading's values under the entity keys, to merge into the device's state JSON.
 * `stateOf` gives a device's state so far; only an open charging session needs it (its energy
 * is the import register last seen minus the session's start). Availability is not state: undefined.
 */
export function statePatch(
  reading: DeviceState | Availability,
  stateOf?: (deviceId: string) => Readonly<Record<string, StateValue>> | undefined,
): StatePatch | undefined {
  switch (reading.kind) {
    // Readings in the daemon's words are the state's values as they are.
    case "inverter.live":
    case "inverter.counters":
    case "ems":
      return { device: idOf(reading.serial), values: { ...reading.values } };
    case "inverter.events":
      return { device: idOf(reading.serial), values: eventPatch(reading.active, reading.latest) };
    case "ev.status":
    case "ev.meter":
      return { device: idOf(reading.uuid), values: { ...reading.values } };
    case "ev.session":
      return { device: idOf(reading.uuid), values: evSessionPatch(reading.session, stateOf?.(idOf(reading.uuid))) };
    case "smart.data":
      return { device: idOf(reading.uuid), values: smartDevicePatch(reading.point) };
    case "availability":
      return undefined;
  }
}

/** Values the inventory itself carries (battery modules), to publish with the first state. */
export function inventoryState(device: Device): StatePatch {
  const values = device.kind === "inverter" ? { ...batteryState(device), ...batteryModuleState(device.batteries) } : {};
  return { device: deviceId(device), values };
}

/** What a reading tells about the device's layout (solar arrays, EMS meters), if anything. */
export function detailsOf(reading: DeviceState | Availability): DeviceDetails | undefined {
  if (reading.kind === "inverter.live") return liveDetails(reading.values);
  if (reading.kind === "ems") return emsDetails(reading.values);
  return undefined;
}
