import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore, StoreError } from "../../src/store/index.js";
import { auditLog } from "../../src/store/migrations/001-audit-log.js";
import { MIGRATIONS } from "../../src/store/migrations/index.js";
import { points, SERIAL, T0 } from "./helpers/history-records.js";
import { lockFromAnotherProcess } from "./helpers/processes.js";
import { tempDir } from "./helpers/temp-dir.js";

const dir = tempDir();
afterAll(() => dir.remove());
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function caught(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("history reliability", () => {
  it("opens a version 1 file (audit log only) at the new version with its audit rows kept", () => {
    const path = dir.path("v1.db");
    const db = new Database(path);
    auditLog.up(db);
    db.pragma("user_version = 1");
    db.prepare(
      "INSERT INTO audit_log (at, source, target_kind, target, action, request, ok, verified, skipped, message) VALUES (5, 'cli', 'inverter', ?, 'setting:71', '{\"value\":20}', 1, 1, 0, 'kept')",
    ).run(SERIAL);
    db.close();
    const store = openStore(path);
    try {
      expect(store.version).toBe(MIGRATIONS.length);
      expect(store.audit.recent()).toMatchObject([{ at: 5, target: SERIAL, request: { value: 20 }, message: "kept" }]);
      expect(store.history.write(points(3))).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    } finally {
      store.close();
    }
  });

  it("keeps every batch reported committed when killed with SIGKILL mid-ingest, and no partial one", async () => {
    const path = dir.path("killed.db");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", fileURLToPath(new URL("./helpers/history-ingest-child.ts", import.meta.url)), path],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    const exited = once(child, "exit");
    await new Promise<void>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`the ingest child exited early (${code})`)));
      child.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if ((output.match(/committed/g) ?? []).length >= 30) resolve();
      });
    });
    child.kill("SIGKILL");
    const [, signal] = await exited;
    expect(signal).toBe("SIGKILL");
    const reported = Math.max(...[...output.matchAll(/committed (\d+)\n/g)].map((m) => Number(m[1])));

    const db = new Database(path);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    db.close();
    const store = openStore(path);
    try {
      const ats = [...store.history.query({ kind: "inverter.point" })].map((r) => r.at);
      // Whole batches only, in order, at least as many as were reported.
      expect(ats.length % 100).toBe(0);
      expect(ats.length).toBeGreaterThanOrEqual((reported + 1) * 100);
      expect(ats).toEqual(ats.map((_, i) => T0 + i * 300_000));
      // A restart that writes the same batches again adds nothing.
      expect(store.history.write(points(100)).unchanged).toBe(100);
    } finally {
      store.close();
    }
  }, 30_000);

  it("says another process holds the store when a history write cannot get the lock", async () => {
    const path = dir.path("locked.db");
    const store = openStore(path, { busyTimeoutMs: 50 });
    const lock = await lockFromAnotherProcess(path);
    try {
      const error = caught(() => store.history.write(points(2)));
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ kind: "locked" });
      expect((error as StoreError).message).toContain("stop it, or set store.path to another file");
      expect(
        caught(() =>
          store.history.markFetched([{ kind: "flow.day", device: SERIAL, day: "2025-06-01", complete: true }]),
        ),
      ).toMatchObject({ kind: "locked" });
    } finally {
      await lock.release();
    }
    expect(store.history.write(points(2))).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    store.close();
  });

  it("says a history row is damaged, and what to do, instead of handing out garbage", () => {
    const path = dir.path("damaged.db");
    const store = openStore(path);
    store.history.write(points(2));
    const db = new Database(path);
    db.prepare("UPDATE history SET data = '[1, 2' WHERE at = ?").run(T0);
    db.prepare("UPDATE history SET data = '[1]' WHERE at = ?").run(T0 + 300_000);
    db.close();
    try {
      const error = caught(() => [...store.history.query({ kind: "inverter.point" })]);
      expect(error).toMatchObject({ name: "StoreError", kind: "corrupt" });
      expect((error as StoreError).message).toMatch(
        /a history row in .*damaged\.db cannot be read .*restore a backup, or move the file aside/,
      );
      const second = caught(() => [...store.history.query({ kind: "inverter.point", from: T0 + 1 })]);
      expect((second as StoreError).message).toContain("fewer values than its shape");
    } finally {
      store.close();
    }
  });
});
