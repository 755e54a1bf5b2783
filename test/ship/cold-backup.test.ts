import { copyFileSync, existsSync, mkdirSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/store/index.js";

/**
 * Why the add-on is backed up cold (addon/config.yaml `backup: cold`): the Supervisor stops
 * the add-on, so the daemon closes its store, and only then copies the folder. A closed store
 * is one complete file; an open one keeps its latest writes in the write-ahead log beside it.
 */

const change = (n: number) => ({
  at: 1_760_000_000_000 + n,
  source: "mqtt",
  targetKind: "inverter",
  target: "SD2024G001",
  action: "setting:71",
  request: { value: n },
  ok: true,
  verified: true,
  skipped: false,
  message: "done",
});

/** Copies the database file alone, as a backup taken at the wrong moment may, and counts its changes. */
function copyOfFileAlone(path: string): number {
  const dir = mkdtempSync(join(tmpdir(), "e2m-copy-"));
  const copy = join(dir, "energy2mqtt.db");
  copyFileSync(path, copy);
  const db = new Database(copy, { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    // Even the tables may still be in the WAL only.
    const table = db.prepare("SELECT name FROM sqlite_master WHERE name = 'audit_log'").get();
    return table ? (db.prepare("SELECT count(*) AS n FROM audit_log").get() as { n: number }).n : 0;
  } finally {
    db.close();
  }
}

describe("the store, as a cold backup copies it", () => {
  it("is one complete file once closed: the write-ahead log is folded in and removed", () => {
    const dir = mkdtempSync(join(tmpdir(), "e2m-cold-"));
    mkdirSync(join(dir, "config"));
    const path = join(dir, "config", "energy2mqtt.db");
    const store = openStore(path);
    for (let n = 0; n < 50; n++) store.audit.record(change(n));

    // Open, the latest writes are in the WAL: the file alone does not hold them.
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    expect(copyOfFileAlone(path)).toBeLessThan(50);

    store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(copyOfFileAlone(path)).toBe(50);
  });
});
