import type { ControllableDevice, DevicePath, HeldValue, InverterReads, PathOutcome } from "../../sources/index.js";
import type { SettingValue } from "../change.js";
import { isWriteOnly } from "../setting-rules.js";

/** What a backup and a restore read a device's settings with: the path's reads, and which path it is. */
export interface SettingsReader {
  readonly inverters: Pick<InverterReads, "readSetting">;
  pathOf(serial: string): DevicePath;
}

/** A device's settings as read now: each readable one's value by its number, and why the others were not. */
export interface DeviceSettingsRead {
  readonly values: ReadonlyMap<number, SettingValue>;
  readonly unreadable: ReadonlyMap<number, string>;
}

/**
 * Every setting the device lists, read one at a time over its path, except the write-only ones
 * (commands such as a restart, which hold no value). A read that fails is kept with its reason.
 */
export async function readDeviceSettings(
  reader: SettingsReader,
  device: ControllableDevice,
  priority: "command" | "background",
): Promise<DeviceSettingsRead> {
  const values = new Map<number, SettingValue>();
  const unreadable = new Map<number, string>();
  for (const setting of device.settings) {
    if (isWriteOnly(setting)) continue;
    const read = await readOne(reader, device.serial, setting.id, priority);
    if (read.outcome !== "done") unreadable.set(setting.id, read.reason);
    else if (read.value === null) unreadable.set(setting.id, "the device holds no value");
    else values.set(setting.id, read.value);
  }
  return { values, unreadable };
}

async function readOne(
  reader: SettingsReader,
  serial: string,
  settingId: number,
  priority: "command" | "background",
): Promise<PathOutcome<HeldValue>> {
  try {
    return await reader.inverters.readSetting(serial, settingId, { priority });
  } catch (error) {
    return { outcome: "refused", reason: (error as Error).message };
  }
}
