import type { Migration } from "../migrate.js";

/**
 * History rows keyed by (source, at, key) in a WITHOUT ROWID table, so the primary key is the
 * only b-tree: a series' rows lie in time order for range queries, the summary and gap scans.
 * The `source` column holds the series: one (kind, device), a row of history_source (the
 * tables' names, kept; history-series.ts). Data is a JSON array of values whose keys live in
 * history_shape (see history-codec.ts).
 */
export const history: Migration = {
  version: 2,
  name: "history",
  up(db) {
    db.exec(`
      CREATE TABLE history_source (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        device TEXT NOT NULL,
        -- rows before this time (epoch ms) were merged to one per half hour by retention
        downsampled_before INTEGER NOT NULL DEFAULT 0,
        UNIQUE (kind, device)
      ) STRICT;
      CREATE TABLE history_shape (
        id INTEGER PRIMARY KEY,
        skeleton TEXT NOT NULL UNIQUE CHECK (json_valid(skeleton))
      ) STRICT;
      CREATE TABLE history (
        source INTEGER NOT NULL REFERENCES history_source (id),
        at INTEGER NOT NULL,
        key TEXT NOT NULL,
        shape INTEGER NOT NULL REFERENCES history_shape (id),
        data TEXT NOT NULL,
        PRIMARY KEY (source, at, key)
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE history_day (
        source INTEGER NOT NULL REFERENCES history_source (id),
        day TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        complete INTEGER NOT NULL CHECK (complete IN (0, 1)),
        PRIMARY KEY (source, day)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
