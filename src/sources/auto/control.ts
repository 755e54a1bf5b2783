import type { ControlKey, InverterControl, PathOutcome } from "../control-ports.js";
import type { DeviceControl } from "../ports.js";
import type { PathChoice } from "./path-choice.js";

/**
 * `source: auto`'s control: a device's changes go by its path in `choice` when a LAN control is
 * given, by the cloud otherwise. A device on the LAN whose dongle is not connected (`lanUp` says
 * so) is moved to the cloud and its change goes there at once, rather than failing or waiting for
 * the next poll to notice; so does one whose LAN attempt was refused with its dongle gone. A
 * control the device's model has no register for (a setting only the cloud's listing offers) goes
 * by the cloud alone, the device staying on the LAN for the rest: paired by the control's key.
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
  /**
   * The path for this control of the device now: the cloud when the device is on the LAN but its
   * dongle is not connected, or when the LAN does not carry this control.
   */
  const path = (serial: string, key: ControlKey): InverterControl => {
    if (choice.pathOf(serial) !== "local") return cloud.inverters;
    if (!lanUp(serial)) return toCloud(serial, "its dongle is not connected").inverters;
    return local.inverters.carries?.(serial, key) === false ? cloud.inverters : local.inverters;
  };
  /** The call over the device's path; over the cloud too when the dongle dropped with nothing sent. */
  const routed = async <V>(
    serial: string,
    key: ControlKey,
    call: (control: InverterControl) => Promise<PathOutcome<V>>,
  ): Promise<PathOutcome<V>> => {
    const control = path(serial, key);
    const result = await call(control);
    if (control === cloud.inverters || result.outcome !== "refused" || lanUp(serial)) return result;
    return call(toCloud(serial, `its dongle dropped before the change was sent (${result.reason})`).inverters);
  };
  return {
    inverters: {
      readSetting: (serial, id, call) =>
        routed(serial, { setting: id }, (control) => control.readSetting(serial, id, call)),
      readPreset: (serial, preset, call) => path(serial, { preset }).readPreset(serial, preset, call),
      writeSetting: (serial, id, value, call) =>
        routed(serial, { setting: id }, (control) => control.writeSetting(serial, id, value, call)),
      applyPreset: (serial, preset, fields, call) => path(serial, { preset }).applyPreset(serial, preset, fields, call),
    },
    // EV chargers, snapshots, preset profiles, notifications and smart devices: only the cloud has them.
    cloudOnly: cloud.cloudOnly,
    answerMs: Math.max(cloud.answerMs, local.answerMs),
    pathOf: (serial) => by(serial).pathOf(serial),
  };
}
