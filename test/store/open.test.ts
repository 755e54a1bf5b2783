import { chmodSync, existsSync, statSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, StoreError } from "../../src/store/index.js";
import { MIGRATIONS } from "../../src/store/migrations/index.js";
import { lockFromAnotherProcess, openStoreInChild } from "./helpers/processes.js";
import { tempDir } from "./helpers/temp-dir.js";

const dir = tempDir();
afterAll(() => dir.remove());

function raw(path: string): Database.Database {
  return new Database(path);
}

function caught(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe("openStore", () => {
  it("creates the database, its journal files and its folder readable by the owner only", () => {
    const path = dir.path("private/folder/private.db");
    const store = openStore(path);
    try {
      store.audit.record({
        at: 1,
        source: "cli",
        targetKind: "inverter",
        target: "SD2024G001",
        action: "setting:71",
        request: { value: 44 },
        ok: true,
        verified: true,
        skipped: false,
        message: "ok",
      });
      expect(modeOf(dir.path("private/folder"))).toBe(0o700);
      expect(modeOf(dir.path("private"))).toBe(0o700);
      for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(modeOf(file), file).toBe(0o600);
    } finally {
      store.close();
    }
  });

  it("creates the folder and applies the migrations to a fresh file, in WAL mode", () => {
    const path = dir.path("nested/folder/fresh.db");
    const store = openStore(path);
    expect(store.version).toBe(MIGRATIONS.length);
    store.close();
    expect(existsSync(path)).toBe(true);
    const db = raw(path);
    expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name").all();
    expect(tables.map((row) => (row as { name: string }).name)).toEqual([
      "archived_tariff_price",
      "audit_log",
      "audit_log_target_at",
      "forecast_request",
      "history",
      "history_day",
      "history_shape",
      "history_source",
      "local_snapshot",
      "ocpp_sessions",
      "ocpp_sessions_open",
      "ocpp_sessions_started",
      "published_price",
      "rule_obligation",
      "rule_obligation_open",
      "rule_state",
      "settings_backup",
      "settings_backup_by_device",
      "solar_forecast",
      "solar_forecast_day",
      "sqlite_autoindex_forecast_request_1",
      "sqlite_autoindex_history_shape_1",
      "sqlite_autoindex_history_source_1",
      "sqlite_autoindex_local_snapshot_1",
      "sqlite_autoindex_rule_state_1",
      "sqlite_autoindex_solar_forecast_1",
      "sqlite_autoindex_solar_forecast_day_1",
      "sqlite_autoindex_write_count_1",
      "sqlite_sequence",
      "write_count",
    ]);
    db.close();
  });

  it("is idempotent on reopen and keeps what was recorded", () => {
    const path = dir.path("reopen.db");
    const first = openStore(path);
    first.audit.record({
      at: 1,
      source: "cli",
      targetKind: "inverter",
      target: "SD2024G001",
      action: "setting:71",
      request: { value: 20 },
      ok: true,
      verified: true,
      skipped: false,
      message: "done",
    });
    first.close();
    const second = openStore(path);
    expect(second.version).toBe(MIGRATIONS.length);
    expect(second.audit.recent()).toHaveLength(1);
    second.close();
  });

  it("works in memory", () => {
    const store = openStore(":memory:");
    expect(store.audit.recent()).toEqual([]);
    store.close();
  });

  it("refuses a database written by a newer version", () => {
    const path = dir.path("future.db");
    openStore(path).close();
    const db = raw(path);
    db.pragma("user_version = 99");
    db.close();
    const error = caught(() => openStore(path));
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ kind: "too-new", path });
    expect((error as StoreError).message).toContain("newer energy2mqtt (schema version 99");
    expect((error as StoreError).message).toContain("upgrade energy2mqtt");
  });

  it("refuses a file that is not a database, saying to move it aside", () => {
    const path = dir.path("garbage.db");
    writeFileSync(path, "this is not a database, just some text. ".repeat(200));
    const error = caught(() => openStore(path));
    expect(error).toMatchObject({ name: "StoreError", kind: "corrupt" });
    expect((error as StoreError).message).toContain("move it aside");
  });

  it("names the plain file that stands where a folder of store.path should be, not a raw EEXIST", () => {
    const plain = dir.path("plain-file");
    writeFileSync(plain, "not a folder");
    for (const path of [`${plain}/energy2mqtt.db`, `${plain}/deeper/energy2mqtt.db`]) {
      const error = caught(() => openStore(path));
      expect(error).toMatchObject({ name: "StoreError", kind: "cannot-open", path });
      expect((error as StoreError).message).toContain(`${plain} is a file, not a folder`);
      expect((error as StoreError).message).toContain("set store.path");
      expect((error as StoreError).message).not.toMatch(/EEXIST|ENOTDIR/);
    }
    expect(statSync(plain).isFile()).toBe(true);
  });

  it("says so when another process holds the database", async () => {
    const path = dir.path("locked.db");
    openStore(path).close();
    const lock = await lockFromAnotherProcess(path);
    try {
      const error = caught(() => openStore(path, { busyTimeoutMs: 50 }));
      expect(error).toMatchObject({ name: "StoreError", kind: "locked" });
      expect((error as StoreError).message).toBe(
        `another energy2mqtt (or another program) is using ${path}: stop it, or set store.path to another file`,
      );
    } finally {
      await lock.release();
    }
    openStore(path).close();
  });

  it("gives the advice on a locked database for a write after opening too", async () => {
    const path = dir.path("locked-later.db");
    const store = openStore(path, { busyTimeoutMs: 50 });
    const lock = await lockFromAnotherProcess(path);
    try {
      const error = caught(() =>
        store.audit.record({
          at: 1,
          source: "rule",
          targetKind: "inverter",
          target: "SD2024G001",
          action: "setting:71",
          request: null,
          ok: true,
          verified: true,
          skipped: false,
          message: "",
        }),
      );
      expect(error).toMatchObject({ name: "StoreError", kind: "locked" });
    } finally {
      await lock.release();
      store.close();
    }
  });

  it("says so when the file is read-only", () => {
    const path = dir.path("read-only.db");
    openStore(path).close();
    chmodSync(path, 0o444);
    const asRoot = process.getuid?.() === 0;
    let result: { ok: boolean; name?: string; kind?: string; message?: string };
    if (asRoot) {
      // root writes whatever the mode says, so another user opens it.
      chmodSync(dir.path(""), 0o777);
      result = openStoreInChild(path, { uid: 65534, gid: 65534 });
    } else {
      const error = caught(() => openStore(path));
      result = {
        ok: false,
        name: (error as Error).name,
        kind: (error as StoreError).kind,
        message: (error as Error).message,
      };
    }
    expect(result).toMatchObject({ ok: false, name: "StoreError", kind: "read-only" });
    expect(result.message).toContain(`${path} is read-only`);
    expect(result.message).toContain("or set store.path");
  });
});
