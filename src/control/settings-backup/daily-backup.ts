import type { Feature } from "../../bus/feature.js";
import type { Logger } from "../../log/log.js";
import type { Inventory } from "../../sources/index.js";
import type { SettingsBackups } from "../../store/index.js";
import { type Clock, every } from "../../time/index.js";
import { BACKUP_FORMAT, backupYaml } from "./backup-file.js";
import type { SettingsReader } from "./device-settings.js";
import { backUpDevice, devicesWithSettings } from "./take-backup.js";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A check runs on the hour; a backup taken a little later than one before is still a day old at the same check. */
const DUE_AFTER_MS = DAY_MS - HOUR_MS / 2;

export interface DailySettingsBackup extends Feature {
  /** Resolves once the check under way (if any) has finished: for a test that moves the clock. */
  idle(): Promise<void>;
}

/**
 * Keeps a backup of each device's settings in the store once a day, read over its path as
 * `settings backup` reads it, in the background of the path's queue; the store keeps the last 30
 * per device. It checks every hour on the daemon's clock, so a restart neither skips a day nor
 * takes a second backup the same day.
 */
export function dailySettingsBackup(options: {
  readonly clock: Clock;
  readonly reader: SettingsReader;
  readonly inventory: () => Inventory;
  readonly backups: SettingsBackups;
  readonly logger: Logger;
}): DailySettingsBackup {
  const { clock, reader, inventory, backups, logger } = options;
  let stopTimer: (() => void) | undefined;
  let halted = false;
  let running: Promise<void> = Promise.resolve();
  let busy = false;

  const due = (serial: string, now: number): boolean => {
    const latest = backups.list().find((entry) => entry.serial === serial);
    return latest === undefined || now - latest.takenAt >= DUE_AFTER_MS;
  };

  const check = async (): Promise<void> => {
    for (const device of devicesWithSettings(inventory())) {
      const now = clock.now();
      if (halted || !due(device.serial, now)) continue;
      try {
        const backup = await backUpDevice(reader, device, "background");
        if (halted) return;
        const yaml = backupYaml({ format: BACKUP_FORMAT, taken_at: new Date(now).toISOString(), devices: [backup] });
        const settings = Object.keys(backup.settings).length;
        backups.add({ serial: device.serial, takenAt: now, settings, yaml });
        logger.info({ device: device.serial, settings }, `the settings of ${device.serial} backed up in the store`);
      } catch (error) {
        logger.warn(
          { device: device.serial, err: (error as Error).message },
          `the daily backup of ${device.serial}'s settings failed; the next check tries again within the hour`,
        );
      }
    }
  };

  const tick = (): void => {
    if (busy || halted) return;
    busy = true;
    running = check().finally(() => {
      busy = false;
    });
  };

  return {
    name: "settings-backup",
    start() {
      stopTimer = every(clock, HOUR_MS, tick, { background: true });
    },
    halt() {
      halted = true;
    },
    async stop() {
      halted = true;
      stopTimer?.();
      await running;
    },
    idle: () => running,
  };
}
