import type { Migration } from "../migrate.js";

/**
 * The writes the gate sent to each device per local day (write_count), so that a restart does
 * not reset the daily write budget, and the daemon's own snapshots of a device's settings
 * (local_snapshot), taken where its changes go over the LAN and the cloud's snapshots cannot be.
 */
export const writeBudgetAndSnapshots: Migration = {
  version: 5,
  name: "write budget and local snapshots",
  up(db) {
    db.exec(`
      CREATE TABLE write_count (
        serial TEXT NOT NULL,
        -- the local day (YYYY-MM-DD) in the house's zone
        day TEXT NOT NULL,
        writes INTEGER NOT NULL CHECK (writes >= 0),
        -- the 80% warning was given for this device and day
        warned INTEGER NOT NULL DEFAULT 0 CHECK (warned IN (0, 1)),
        PRIMARY KEY (serial, day)
      ) STRICT;
      CREATE TABLE local_snapshot (
        serial TEXT NOT NULL,
        name TEXT NOT NULL,
        taken_at INTEGER NOT NULL,
        -- [{ settingId, name, value }] as read when it was taken
        settings TEXT NOT NULL CHECK (json_valid(settings)),
        PRIMARY KEY (serial, name)
      ) STRICT;
    `);
  },
};
