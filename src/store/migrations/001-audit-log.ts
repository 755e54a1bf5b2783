import type { Migration } from "../migrate.js";

export const auditLog: Migration = {
  version: 1,
  name: "audit log",
  up(db) {
    db.exec(`
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        at INTEGER NOT NULL,
        source TEXT NOT NULL,
        requester_name TEXT,
        target_kind TEXT NOT NULL,
        target TEXT NOT NULL,
        action TEXT NOT NULL,
        request TEXT NOT NULL CHECK (json_valid(request)),
        ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
        code INTEGER,
        verified INTEGER NOT NULL CHECK (verified IN (0, 1)),
        skipped INTEGER NOT NULL CHECK (skipped IN (0, 1)),
        message TEXT NOT NULL
      ) STRICT;
      CREATE INDEX audit_log_target_at ON audit_log (target, at);
    `);
  },
};
