import type { ControllableDevice, DeviceControl } from "../../sources/index.js";
import type { SettingValue } from "../change.js";
import { shown } from "../outcome.js";
import { sameValue } from "../same-value.js";
import { checkSetting, isWriteOnly } from "../setting-rules.js";
import type { DeviceBackup } from "./backup-file.js";

/** One setting of the file against the device: to write, the same, or what stops it being written. */
export type RestoreLine =
  | {
      readonly kind: "write";
      readonly id: number;
      readonly name: string;
      readonly file: SettingValue;
      readonly device: SettingValue;
    }
  | { readonly kind: "same"; readonly id: number; readonly name: string; readonly file: SettingValue }
  /** The device's value could not be read now: not compared, so not written. */
  | {
      readonly kind: "unread";
      readonly id: number;
      readonly name: string;
      readonly file: SettingValue;
      readonly reason: string;
    }
  | {
      readonly kind: "cannot";
      readonly id: number;
      readonly name: string;
      readonly file: SettingValue;
      readonly reason: string;
    };

export interface RestorePlan {
  readonly serial: string;
  readonly lines: readonly RestoreLine[];
}

/** What the restore needs of the path: which controls it carries, reads, and which path it is. */
export type RestoreControl = Pick<DeviceControl, "pathOf"> & {
  readonly inverters: Pick<DeviceControl["inverters"], "readSetting" | "carries">;
};

/**
 * The file's settings for one device against what the device holds now. Only a setting the
 * device offers over its path (on the LAN: one on the model's allowlist), that can be read, whose
 * value is in the device's range, and which differs is to be written; each other one says why.
 * Nothing here writes.
 */
export async function planRestore(
  control: RestoreControl,
  device: ControllableDevice,
  backup: DeviceBackup,
): Promise<RestorePlan> {
  const lines: RestoreLine[] = [];
  const path = control.pathOf(device.serial);
  for (const [key, entry] of Object.entries(backup.settings)) {
    const id = Number(key);
    const descriptor = device.settings.find((setting) => setting.id === id);
    const name = descriptor?.name ?? entry.name ?? `setting ${id}`;
    const cannot = (reason: string): RestoreLine => ({ kind: "cannot", id, name, file: entry.value, reason });
    if (!descriptor) {
      lines.push(cannot(`not allowlisted: ${device.serial} does not offer setting ${id} over ${pathWords(path)}`));
      continue;
    }
    if (control.inverters.carries?.(device.serial, { setting: id }) === false) {
      lines.push(cannot(`not allowlisted: the ${device.model} has no register for it on the LAN`));
      continue;
    }
    if (isWriteOnly(descriptor)) {
      lines.push(cannot("write-only: a command, not a value to put back"));
      continue;
    }
    const check = checkSetting(descriptor, entry.value);
    if (!check.ok) {
      lines.push(cannot(`out of the device's range: ${check.reason}`));
      continue;
    }
    const current = await readCurrent(control, device.serial, id);
    if (!("value" in current)) {
      lines.push({ kind: "unread", id, name, file: entry.value, reason: current.reason });
      continue;
    }
    lines.push(
      sameValue(current.value, check.value)
        ? { kind: "same", id, name, file: check.value }
        : { kind: "write", id, name, file: check.value, device: current.value },
    );
  }
  return { serial: device.serial, lines };
}

type Current = { readonly value: SettingValue } | { readonly reason: string };

async function readCurrent(control: RestoreControl, serial: string, id: number): Promise<Current> {
  try {
    const read = await control.inverters.readSetting(serial, id, { priority: "command" });
    if (read.outcome !== "done") return { reason: read.reason };
    if (read.value === null) return { reason: "the device holds no value for it" };
    return { value: read.value };
  } catch (error) {
    return { reason: (error as Error).message };
  }
}

const pathWords = (path: "local" | "cloud"): string => (path === "local" ? "the LAN" : "the cloud");

/** A line of the differences as a person reads it. */
export function describeLine(line: RestoreLine): string {
  const label = `${line.id} ${line.name}`;
  switch (line.kind) {
    case "write":
      return `  ${label}: file ${shown(line.file)}, device ${shown(line.device)}`;
    case "same":
      return `  ${label}: ${shown(line.file)} (same)`;
    case "unread":
    case "cannot":
      return `  ${label}: file ${shown(line.file)}: ${line.reason}`;
  }
}
