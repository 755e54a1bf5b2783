import type { CloudClient } from "../../cloud/index.js";
import type { DeviceControl } from "../ports.js";

/** The cloud as a DeviceControl: its control sections, and its request timeout as the answer's wait. */
export function cloudControl(client: CloudClient): DeviceControl {
  return {
    inverterControl: client.inverterControl,
    evChargers: client.evChargers,
    snapshots: client.snapshots,
    presetProfiles: client.presetProfiles,
    notifications: client.notifications,
    smartDevices: client.smartDevices,
    answerMs: client.http.timeoutMs,
    pathOf: () => "cloud",
  };
}
