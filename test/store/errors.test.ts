import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { toStoreError } from "../../src/store/errors.js";
import { StoreError } from "../../src/store/index.js";

function sqliteError(action: (db: Database.Database) => void): unknown {
  const db = new Database(":memory:");
  try {
    action(db);
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error("expected SQLite to fail");
}

describe("toStoreError", () => {
  it("maps a full database (SQLITE_FULL) to advice about disk space", () => {
    const error = sqliteError((db) => {
      db.exec("CREATE TABLE t (x TEXT)");
      db.pragma("max_page_count = 2");
      const insert = db.prepare("INSERT INTO t VALUES (?)");
      for (let i = 0; i < 1000; i++) insert.run("x".repeat(1000));
    });
    expect((error as { code?: string }).code).toBe("SQLITE_FULL");
    const mapped = toStoreError(error, "data/energy2mqtt.db");
    expect(mapped).toBeInstanceOf(StoreError);
    expect(mapped.kind).toBe("full");
    expect(mapped.message).toBe(
      "the disk holding data/energy2mqtt.db is full: free some space, or set store.path to a disk with room",
    );
    expect(mapped.cause).toBe(error);
  });

  it("maps busy, read-only, corrupt and unknown codes", () => {
    const withCode = (code: string) => Object.assign(new Error(code), { code });
    expect(toStoreError(withCode("SQLITE_BUSY_SNAPSHOT"), "a.db").kind).toBe("locked");
    expect(toStoreError(withCode("SQLITE_LOCKED"), "a.db").kind).toBe("locked");
    expect(toStoreError(withCode("SQLITE_READONLY_DBMOVED"), "a.db").kind).toBe("read-only");
    expect(toStoreError(withCode("SQLITE_CORRUPT"), "a.db").kind).toBe("corrupt");
    expect(toStoreError(withCode("SQLITE_NOTADB"), "a.db").kind).toBe("corrupt");
    expect(toStoreError(withCode("EACCES"), "a.db").kind).toBe("read-only");
    expect(toStoreError(withCode("SQLITE_MISMATCH"), "a.db")).toMatchObject({
      kind: "failed",
      message: "the store a.db failed: SQLITE_MISMATCH",
    });
  });

  it("keeps a StoreError as it is", () => {
    const error = new StoreError("too-new", "a.db", "newer");
    expect(toStoreError(error, "b.db")).toBe(error);
  });
});
