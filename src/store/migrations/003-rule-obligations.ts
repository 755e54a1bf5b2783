import type { Migration } from "../migrate.js";

/**
 * A rule's promise to put things back after its window (rule_obligation), kept across restarts,
 * and each rule's on/off switch as last set from Home Assistant (rule_state).
 */
export const ruleObligations: Migration = {
  version: 3,
  name: "rule obligations",
  up(db) {
    db.exec(`
      CREATE TABLE rule_obligation (
        id INTEGER PRIMARY KEY,
        rule TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        window_start INTEGER NOT NULL,
        window_end INTEGER NOT NULL,
        -- what to put back: API snapshots and locally recorded values
        restore TEXT NOT NULL CHECK (json_valid(restore)),
        status TEXT NOT NULL CHECK (status IN ('open', 'restored', 'failed')),
        finished_at INTEGER,
        message TEXT
      ) STRICT;
      CREATE INDEX rule_obligation_open ON rule_obligation (status, window_end);
      CREATE TABLE rule_state (
        name TEXT PRIMARY KEY,
        enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
        updated_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
