import { renameSync, rmSync, writeFileSync } from "node:fs";
import { backupYaml, takeBackup } from "../control/index.js";
import { type Clock, systemClock } from "../time/index.js";
import { withSettingsHouse } from "./settings-house.js";

export interface SettingsBackupOptions {
  readonly config?: string | undefined;
  /** One device's serial; every device with settings when left out. */
  readonly device?: string | undefined;
  /** The file to write; stdout when left out. */
  readonly out?: string | undefined;
}

/**
 * `energy2mqtt settings backup`: every readable setting of each device, over the path the
 * configuration uses, as a YAML file `settings restore` reads. 0 written, 1 the house could not be
 * read or the file written, 2 bad configuration or an unknown device.
 */
export async function runSettingsBackupCommand(
  options: SettingsBackupOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
  clock: Clock = systemClock,
): Promise<number> {
  const opened = { config: options.config, storeRefusal: "the store cannot be opened: " };
  return withSettingsHouse(opened, err, clock, async (house) => {
    const devices = house.devices(options.device);
    if (typeof devices === "string") {
      err.write(`${devices}\n`);
      return 2;
    }
    const backup = await takeBackup(house.control, devices, clock.now(), "command");
    const text = backupYaml(backup);
    if (options.out === undefined) out.write(text);
    else {
      const problem = writeWhole(options.out, text);
      if (problem) {
        err.write(`${problem}\n`);
        return 1;
      }
    }
    for (const device of backup.devices) {
      const unread = Object.keys(device.unreadable ?? {}).length;
      err.write(
        `${device.serial}: ${Object.keys(device.settings).length} settings backed up over ${device.path === "local" ? "the LAN" : "the cloud"}${unread > 0 ? `, ${unread} could not be read (listed under unreadable)` : ""}\n`,
      );
    }
    return 0;
  });
}

/** The file whole or not at all: an earlier backup there stays until the new one is written. */
function writeWhole(path: string, text: string): string | undefined {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
    return undefined;
  } catch (error) {
    rmSync(temporary, { force: true });
    return `the backup was not written to ${path} (${(error as Error).message}): choose another --out, or let this user write there`;
  }
}
