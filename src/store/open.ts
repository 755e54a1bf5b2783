import { closeSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { PRIVATE_DIR, PRIVATE_FILE } from "../files/file-modes.js";
import { type ArchivedPrices, SqliteArchivedPrices } from "./archived-prices.js";
import { type AuditLog, SqliteAuditLog } from "./audit-log.js";
import { guard, StoreError, toStoreError } from "./errors.js";
import { SqliteHistory, type StoreHistory } from "./history.js";
import { type LocalSnapshots, SqliteLocalSnapshots } from "./local-snapshots.js";
import { runMigrations } from "./migrate.js";
import { MIGRATIONS } from "./migrations/index.js";
import { type OcppSessionStore, SqliteOcppSessions } from "./ocpp-sessions.js";
import { type PublishedPrices, SqlitePublishedPrices } from "./published-prices.js";
import { type RuleObligations, SqliteRuleObligations } from "./rule-obligations.js";
import { type SettingsBackups, SqliteSettingsBackups } from "./settings-backups.js";
import { type SolarForecasts, SqliteSolarForecasts } from "./solar-forecasts.js";
import { SqliteWriteCounts, type WriteCounts } from "./write-counts.js";

export interface StoreOptions {
  /** How long to wait for another connection's write lock before giving up; 5 s by default. */
  readonly busyTimeoutMs?: number;
  /**
   * The most pages (4 KB each) the database may grow to; SQLite then answers SQLITE_FULL, as on a
   * full disk. Unlimited by default.
   */
  readonly maxPages?: number;
}

export interface Store {
  /** The database file, as given. */
  readonly path: string;
  /** The schema version the database is at. */
  readonly version: number;
  readonly audit: AuditLog;
  readonly history: StoreHistory;
  readonly ruleObligations: RuleObligations;
  /** The writes sent per device and local day: the daily write budget. */
  readonly writeCounts: WriteCounts;
  /** The daemon's own snapshots of devices whose changes go over the LAN. */
  readonly localSnapshots: LocalSnapshots;
  /** The solar forecasts before each half-hour, and each day's error against what was measured. */
  readonly solarForecasts: SolarForecasts;
  /** The tariffs' published half-hour prices: the past days' prices after a restart. */
  readonly publishedPrices: PublishedPrices;
  /** Past prices of other tariffs (by code), fetched once for the backtest. */
  readonly archivedPrices: ArchivedPrices;
  /** The OCPP central system's charging sessions, with the transaction ids it gave. */
  readonly ocppSessions: OcppSessionStore;
  /** The daemon's daily backups of each device's settings, the last 30 per device. */
  readonly settingsBackups: SettingsBackups;
  close(): void;
}

const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens (or creates) the SQLite store and brings its schema up to date. Throws a StoreError
 * saying what to do when the file is locked, read-only, on a full disk, damaged, or newer than
 * this code.
 */
export function openStore(path: string, options: StoreOptions = {}): Store {
  const memory = path === ":memory:";
  if (!memory) guard(path, () => createPrivately(path));
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
    const opened = db;
    if (!memory) opened.pragma("journal_mode = WAL");
    opened.pragma("synchronous = NORMAL");
    opened.pragma("foreign_keys = ON");
    const { to } = runMigrations(opened, MIGRATIONS, path);
    if (options.maxPages !== undefined) opened.pragma(`max_page_count = ${Math.floor(options.maxPages)}`);
    // A write at start-up, so that a read-only or locked file fails now rather than at the first change.
    opened.pragma(`user_version = ${to}`);
    return {
      path,
      version: to,
      audit: new SqliteAuditLog(opened, path),
      history: new SqliteHistory(opened, path),
      ruleObligations: new SqliteRuleObligations(opened, path),
      writeCounts: new SqliteWriteCounts(opened, path),
      localSnapshots: new SqliteLocalSnapshots(opened, path),
      solarForecasts: new SqliteSolarForecasts(opened, path),
      publishedPrices: new SqlitePublishedPrices(opened, path),
      archivedPrices: new SqliteArchivedPrices(opened, path),
      ocppSessions: new SqliteOcppSessions(opened, path),
      settingsBackups: new SqliteSettingsBackups(opened, path),
      close: () => guard(path, () => opened.close()),
    };
  } catch (error) {
    closeQuietly(db);
    throw toStoreError(error, path);
  }
}

/**
 * Creates the database's folder (0700) and the empty file (0600) when they do not exist, so that
 * SQLite, which gives its journal and shared-memory files the database's own permissions, never
 * makes a world-readable one. An existing file keeps the permissions its owner gave it.
 */
function createPrivately(path: string): void {
  const blocking = fileInTheWay(dirname(path));
  if (blocking !== undefined)
    throw new StoreError(
      "cannot-open",
      path,
      `cannot create ${path}: ${blocking} is a file, not a folder; set store.path to a file in a folder (e.g. data/energy2mqtt.db), or move ${blocking} aside`,
    );
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR });
  closeSync(openSync(path, "a", PRIVATE_FILE));
}

/** The nearest existing ancestor of `folder` (itself included) when it is a file rather than a folder. */
function fileInTheWay(folder: string): string | undefined {
  for (let at = folder; ; at = dirname(at)) {
    const found = statOrNone(at);
    if (found) return found.isDirectory() ? undefined : at;
    if (dirname(at) === at) return undefined;
  }
}

/** Undefined where nothing is, or where a file stands in the path (ENOTDIR): the caller looks further up. */
function statOrNone(path: string): ReturnType<typeof statSync> {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** The error that got us here is the one worth reporting. */
function closeQuietly(db: Database.Database | undefined): void {
  try {
    db?.close();
  } catch {
    // already failing
  }
}
