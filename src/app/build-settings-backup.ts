import { type DailySettingsBackup, dailySettingsBackup } from "../control/index.js";
import type { Logger } from "../log/log.js";
import type { DeviceControl } from "../sources/index.js";
import type { Store } from "../store/index.js";
import type { Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";

/** The daily backup of each device's settings, read over the control's path; none without a store to keep it. */
export function buildSettingsBackup(options: {
  readonly store: Store | undefined;
  readonly control: DeviceControl;
  readonly inventory: () => Inventory;
  readonly logger: Logger;
  readonly clock: Clock;
}): DailySettingsBackup | undefined {
  const { store, control, inventory, logger, clock } = options;
  if (!store) return undefined;
  return dailySettingsBackup({ clock, reader: control, inventory, backups: store.settingsBackups, logger });
}
