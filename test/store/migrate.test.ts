import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { type Migration, runMigrations, userVersion } from "../../src/store/migrate.js";

const table = (version: number, name: string): Migration => ({
  version,
  name,
  up: (db) => db.exec(`CREATE TABLE ${name} (id INTEGER PRIMARY KEY)`),
});

const tables = (db: Database.Database): string[] =>
  db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => (row as { name: string }).name);

describe("runMigrations", () => {
  it("applies the pending migrations in order and only those", () => {
    const db = new Database(":memory:");
    expect(runMigrations(db, [table(1, "one")], ":memory:")).toEqual({ from: 0, to: 1 });
    expect(runMigrations(db, [table(1, "one"), table(2, "two")], ":memory:")).toEqual({ from: 1, to: 2 });
    expect(runMigrations(db, [table(1, "one"), table(2, "two")], ":memory:")).toEqual({ from: 2, to: 2 });
    expect(tables(db)).toEqual(["one", "two"]);
    db.close();
  });

  it("rolls a failing migration back and leaves the version at the last good one", () => {
    const db = new Database(":memory:");
    const broken: Migration = {
      version: 2,
      name: "broken",
      up: (inner) => {
        inner.exec("CREATE TABLE half (id INTEGER)");
        throw new Error("boom");
      },
    };
    expect(() => runMigrations(db, [table(1, "one"), broken], ":memory:")).toThrow("boom");
    expect(userVersion(db)).toBe(1);
    expect(tables(db)).toEqual(["one"]);
    db.close();
  });

  it("refuses migrations that are not numbered 1, 2, 3, ...", () => {
    const db = new Database(":memory:");
    expect(() => runMigrations(db, [table(1, "one"), table(3, "three")], ":memory:")).toThrow(
      'migration "three" has version 3, expected 2',
    );
    db.close();
  });

  it("refuses a database newer than the migrations", () => {
    const db = new Database(":memory:");
    db.pragma("user_version = 5");
    expect(() => runMigrations(db, [table(1, "one")], "x.db")).toThrow(/schema version 5; this one knows up to 1/);
    db.close();
  });
});
