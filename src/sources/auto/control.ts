import type { DeviceControl } from "../ports.js";
import type { PathChoice } from "./path-choice.js";

/**
 * `source: auto`'s control: a device's changes go by its path in `choice` when a LAN control is
 * given, by the cloud otherwise. (Until writes over the LAN land, no LAN control is given and
 * every change goes by the cloud, which pathOf says.)
 */
export function autoControl(cloud: DeviceControl, choice: PathChoice, local?: DeviceControl): DeviceControl {
  if (!local) return cloud;
  const by = (serial: string): DeviceControl => (choice.pathOf(serial) === "local" ? local : cloud);
  return {
    inverterControl: {
      readSetting: (serial, ...rest) => by(serial).inverterControl.readSetting(serial, ...rest),
      presetValues: (serial, ...rest) => by(serial).inverterControl.presetValues(serial, ...rest),
      writeSetting: (serial, ...rest) => by(serial).inverterControl.writeSetting(serial, ...rest),
      modifyPreset: (serial, ...rest) => by(serial).inverterControl.modifyPreset(serial, ...rest),
    },
    // EV chargers, snapshots, preset profiles, notifications and smart devices: only the cloud has them today.
    evChargers: cloud.evChargers,
    snapshots: cloud.snapshots,
    presetProfiles: cloud.presetProfiles,
    notifications: cloud.notifications,
    smartDevices: cloud.smartDevices,
    answerMs: Math.max(cloud.answerMs, local.answerMs),
    pathOf: (serial) => by(serial).pathOf(serial),
  };
}
