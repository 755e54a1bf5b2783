import type { Migration } from "../migrate.js";

/**
 * The daemon's daily backups of each device's settings (settings_backup): the YAML file
 * `settings backup` writes, kept as text so the web page hands it out as it was taken. The daemon
 * keeps the last 30 per device.
 */
export const settingsBackups: Migration = {
  version: 9,
  name: "settings backups",
  up(db) {
    db.exec(`
      CREATE TABLE settings_backup (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        serial TEXT NOT NULL,
        -- epoch ms, on the daemon's clock
        taken_at INTEGER NOT NULL,
        -- how many settings it holds, for the list without reading each file
        settings INTEGER NOT NULL CHECK (settings >= 0),
        yaml TEXT NOT NULL
      ) STRICT;
      CREATE INDEX settings_backup_by_device ON settings_backup (serial, taken_at);
    `);
  },
};
