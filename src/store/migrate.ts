import type { Database } from "better-sqlite3";
import { tooNewError } from "./errors.js";

/** One step of the schema; `up` runs inside a transaction with the version bump. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Database): void;
}

export function userVersion(db: Database): number {
  const value: unknown = db.pragma("user_version", { simple: true });
  if (typeof value !== "number") throw new Error(`PRAGMA user_version answered ${String(value)}`);
  return value;
}

/** Versions must run 1, 2, 3, ... so that user_version always names the last one applied. */
export function checkMigrationOrder(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`migration "${migration.name}" has version ${migration.version}, expected ${index + 1}`);
    }
  });
}

export interface MigrationRun {
  readonly from: number;
  readonly to: number;
}

/**
 * Brings the database up to the last migration, one transaction per migration, and refuses a
 * database newer than the code. Each step re-reads the version under the write lock, so two
 * processes opening the same new file do not both apply it.
 */
export function runMigrations(db: Database, migrations: readonly Migration[], path: string): MigrationRun {
  checkMigrationOrder(migrations);
  const latest = migrations.length;
  const from = userVersion(db);
  if (from > latest) throw tooNewError(path, from, latest);
  for (const migration of migrations.slice(from)) {
    db.transaction(() => {
      if (userVersion(db) >= migration.version) return;
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  return { from, to: userVersion(db) };
}
