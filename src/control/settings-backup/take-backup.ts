import type { ControllableDevice, Inventory } from "../../sources/index.js";
import { BACKUP_FORMAT, type BackedUpSetting, type BackupFile, type DeviceBackup } from "./backup-file.js";
import { readDeviceSettings, type SettingsReader } from "./device-settings.js";

/** The devices whose settings a backup holds: stand-alone inverters, gateways and EMS plants that list some. */
export function devicesWithSettings(inventory: Inventory): ControllableDevice[] {
  return [...inventory.inverters, ...inventory.ems].filter((device) => device.settings.length > 0);
}

/** One device's settings read now, as the backup file holds them. */
export async function backUpDevice(
  reader: SettingsReader,
  device: ControllableDevice,
  priority: "command" | "background",
): Promise<DeviceBackup> {
  const read = await readDeviceSettings(reader, device, priority);
  const settings: Record<string, BackedUpSetting> = {};
  for (const setting of device.settings) {
    const value = read.values.get(setting.id);
    if (value !== undefined) settings[String(setting.id)] = { name: setting.name, value };
  }
  const unreadable = Object.fromEntries([...read.unreadable].map(([id, why]) => [String(id), why]));
  return {
    serial: device.serial,
    kind: device.kind,
    model: device.model,
    firmware: device.kind === "inverter" ? firmwareOf(device.firmware) : {},
    path: reader.pathOf(device.serial),
    settings,
    ...(read.unreadable.size > 0 ? { unreadable } : {}),
  };
}

/** The backup of the given devices, stamped with `takenAt` (the daemon's clock). */
export async function takeBackup(
  reader: SettingsReader,
  devices: readonly ControllableDevice[],
  takenAt: number,
  priority: "command" | "background",
): Promise<BackupFile> {
  const backups: DeviceBackup[] = [];
  for (const device of devices) backups.push(await backUpDevice(reader, device, priority));
  return { format: BACKUP_FORMAT, taken_at: new Date(takenAt).toISOString(), devices: backups };
}

function firmwareOf(firmware: Record<string, string | number | null | undefined>): DeviceBackup["firmware"] {
  const known: DeviceBackup["firmware"] = {};
  for (const [part, version] of Object.entries(firmware)) if (version !== undefined) known[part] = version;
  return known;
}
