import type { Migration } from "../migrate.js";

/**
 * The OCPP central system's charging sessions (ocpp_sessions). The transaction id is the row id,
 * AUTOINCREMENT so that an id is never given twice, not even after rows are deleted or the daemon
 * restarts: a charge point may still hold an old transaction and send its StopTransaction late.
 */
export const ocppSessions: Migration = {
  version: 8,
  name: "ocpp sessions",
  up(db) {
    db.exec(`
      CREATE TABLE ocpp_sessions (
        transaction_id INTEGER PRIMARY KEY AUTOINCREMENT,
        -- the charge point's identity (the last part of its WebSocket URL)
        charge_point TEXT NOT NULL,
        connector_id INTEGER NOT NULL CHECK (connector_id >= 0),
        id_tag TEXT NOT NULL,
        -- epoch ms, as the central system's clock read them
        started_at INTEGER NOT NULL,
        stopped_at INTEGER,
        -- the meter's Energy.Active.Import.Register in Wh at start and stop
        meter_start_wh INTEGER NOT NULL,
        meter_stop_wh INTEGER,
        -- StopTransaction's reason (Local, Remote, EVDisconnected, ...); NULL: none given or still open
        stop_reason TEXT
      ) STRICT;
      CREATE INDEX ocpp_sessions_open ON ocpp_sessions (charge_point, connector_id) WHERE stopped_at IS NULL;
      CREATE INDEX ocpp_sessions_started ON ocpp_sessions (started_at);
    `);
  },
};
