import type { SettingsBackupsView } from "../../api-types.js";
import { linkUrl } from "../api.js";
import { h } from "../dom.js";

/**
 * The Health page's settings backups: each device's newest daily backup with its download (the
 * file `energy2mqtt settings restore` reads), and how many are kept.
 */
export function settingsBackupsList(view: SettingsBackupsView, time: (ms: number) => string): Node | string {
  if (view.backups.length === 0) return "none yet: the daemon takes one a day of each device's settings";
  const bySerial = new Map<string, SettingsBackupsView["backups"][number][]>();
  for (const backup of view.backups) bySerial.set(backup.serial, [...(bySerial.get(backup.serial) ?? []), backup]);
  const items = [...bySerial].map(([serial, backups]) => {
    const [newest] = backups;
    if (!newest) return h("li", {}, serial);
    return h(
      "li",
      { "data-device": serial },
      `${serial}: ${time(newest.takenAt)}, ${newest.settings} settings `,
      h("a", { href: linkUrl(`settings-backups/${newest.id}.yaml`), download: "" }, "download"),
      ` (${backups.length} kept)`,
    );
  });
  return h("ul", {}, ...items);
}
