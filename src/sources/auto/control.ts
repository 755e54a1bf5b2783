import type { InverterControl, PathOutcome } from "../control-ports.js";
import type { DeviceControl } from "../ports.js";
import type { PathChoice } from "./path-choice.js";

/**
 * `source: auto`'s control: a device's changes go by its path in `choice` when a LAN control is
 * given, by the cloud otherwise. A device on the LAN whose dongle is not connected (`lanUp` says
 * so) is moved to the cloud and its change goes there at once, rather than failing or waiting for
 * the next poll to notice; so does one whose LAN attempt was refused with its dongle gone.
 */
export function autoControl(
  cloud: DeviceControl,
  choice: PathChoice,
  local?: DeviceControl,
  lanUp: (serial: string) => boolean = () => true,
): DeviceControl {
  if (!local) return cloud;
  const by = (serial: string): DeviceControl => (choice.pathOf(serial) === "local" ? local : cloud);
  const toCloud = (serial: string, why: string): DeviceControl => {
    choice.use(serial, "cloud", why);
    return cloud;
  };
  /** The device's path now: the cloud when it is on the LAN but its dongle is not connected. */
  const path = (serial: string): InverterControl =>
    choice.pathOf(serial) !== "local"
      ? cloud.inverters
      : lanUp(serial)
        ? local.inverters
        : toCloud(serial, "its dongle is not connected").inverters;
  /** The call over the device's path; over the cloud too when the dongle dropped with nothing sent. */
  const routed = async <V>(
    serial: string,
    call: (control: InverterControl) => Promise<PathOutcome<V>>,
  ): Promise<PathOutcome<V>> => {
    const control = path(serial);
    const result = await call(control);
    if (control === cloud.inverters || result.outcome !== "refused" || lanUp(serial)) return result;
    return call(toCloud(serial, `its dongle dropped before the change was sent (${result.reason})`).inverters);
  };
  return {
    inverters: {
      readSetting: (serial, ...rest) => routed(serial, (control) => control.readSetting(serial, ...rest)),
      readPreset: (serial, ...rest) => path(serial).readPreset(serial, ...rest),
      writeSetting: (serial, ...rest) => routed(serial, (control) => control.writeSetting(serial, ...rest)),
      applyPreset: (serial, ...rest) => path(serial).applyPreset(serial, ...rest),
    },
    // EV chargers, snapshots, preset profiles, notifications and smart devices: only the cloud has them.
    cloudOnly: cloud.cloudOnly,
    answerMs: Math.max(cloud.answerMs, local.answerMs),
    pathOf: (serial) => by(serial).pathOf(serial),
  };
}
