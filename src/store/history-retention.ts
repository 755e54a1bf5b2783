import type { Database } from "better-sqlite3";
import type { HistoryCodec } from "./history-codec.js";
import { mergeRuleOf } from "./history-quantities.js";
import type { Series } from "./history-series.js";
import { DOWNSAMPLED_KINDS, type HistoryKind, type JsonObject, type JsonValue } from "./history-types.js";

/** Per kind, in epoch milliseconds; the shape of `store.retention` in the configuration. */
export interface RetentionRule {
  /** Rows older than this are deleted. */
  readonly keep?: number | undefined;
  /** Rows older than this are merged to one per half hour (DOWNSAMPLED_KINDS only). */
  readonly downsample_after?: number | undefined;
}
export type RetentionRules = Partial<Record<HistoryKind, RetentionRule>>;

export interface RetentionResult {
  /** Rows deleted because they were older than `keep`. */
  readonly deleted: number;
  /** Rows folded into another by downsampling. */
  readonly merged: number;
}

const HALF_HOUR = 30 * 60_000;
const DAY = 24 * 60 * 60_000;

interface Context {
  readonly db: Database;
  readonly codec: HistoryCodec;
  readonly series: readonly Series[];
}

interface Row {
  at: number;
  key: string;
  shape: number;
  data: string;
}

export function applyRetention(context: Context, rules: RetentionRules, now: number): RetentionResult {
  let deleted = 0;
  let merged = 0;
  for (const series of context.series) {
    const rule = rules[series.kind];
    if (rule?.keep !== undefined) deleted += deleteOlder(context.db, series.id, now - rule.keep);
    if (rule?.downsample_after !== undefined && DOWNSAMPLED_KINDS.includes(series.kind)) {
      const cutoff = Math.floor((now - rule.downsample_after) / HALF_HOUR) * HALF_HOUR;
      merged += downsample(context, series, cutoff);
    }
  }
  return { deleted, merged };
}

function deleteOlder(db: Database, series: number, before: number): number {
  return db
    .transaction(() => db.prepare("DELETE FROM history WHERE source = ? AND at < ?").run(series, before).changes)
    .immediate();
}

/**
 * Merges each half hour before `cutoff` (per key) into its last row, at that row's time: counters
 * keep the last value, so today's and lifetime totals stay exact and a day's last point survives;
 * interval energies are summed; other numbers (power, voltage, temperature, SoC) are averaged
 * over the points that have them; text and flags keep the last value. A day per transaction,
 * so an interrupted run leaves whole days done or untouched, and a second run changes nothing.
 */
function downsample(context: Context, series: Series, cutoff: number): number {
  const { db, codec } = context;
  const next = db.prepare<[number, number, number], { at: number | null }>(
    "SELECT MIN(at) AS at FROM history WHERE source = ? AND at >= ? AND at < ?",
  );
  const read = db.prepare<[number, number, number], Row>(
    "SELECT at, key, shape, data FROM history WHERE source = ? AND at >= ? AND at < ? ORDER BY at, key",
  );
  const remove = db.prepare("DELETE FROM history WHERE source = ? AND at = ? AND key = ?");
  const update = db.prepare("UPDATE history SET shape = ?, data = ? WHERE source = ? AND at = ? AND key = ?");
  const mark = db.prepare("UPDATE history_source SET downsampled_before = MAX(downsampled_before, ?) WHERE id = ?");
  let merged = 0;
  let cursor = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const first = next.get(series.id, cursor, cutoff)?.at;
    if (first === null || first === undefined) break;
    const start = Math.floor(first / HALF_HOUR) * HALF_HOUR;
    const end = Math.min(start + DAY, cutoff);
    merged += db
      .transaction(() => {
        let count = 0;
        for (const group of halfHours(read.all(series.id, start, end))) {
          if (group.length < 2) continue;
          const last = group[group.length - 1] as Row;
          const data = mergeRows(
            series.kind,
            group.map((row) => codec.decode(row.shape, row.data)),
          );
          const encoded = codec.encode(data);
          for (const row of group) if (row !== last) remove.run(series.id, row.at, row.key);
          update.run(encoded.shape, encoded.data, series.id, last.at, last.key);
          count += group.length - 1;
        }
        return count;
      })
      .immediate();
    cursor = end;
  }
  mark.run(cutoff, series.id);
  return merged;
}

/** Rows grouped by (half hour, key), in time order within each group. */
function halfHours(rows: readonly Row[]): Row[][] {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const name = `${Math.floor(row.at / HALF_HOUR)}\u0000${row.key}`;
    const group = groups.get(name);
    if (group) group.push(row);
    else groups.set(name, [row]);
  }
  return [...groups.values()];
}

function mergeRows(kind: HistoryKind, rows: readonly JsonObject[]): JsonObject {
  const last = rows[rows.length - 1] ?? {};
  return mergeNode(kind, [], last, rows) as JsonObject;
}

function mergeNode(kind: HistoryKind, path: string[], value: JsonValue, rows: readonly JsonObject[]): JsonValue {
  if (Array.isArray(value)) return value.map((child, i) => mergeNode(kind, [...path, String(i)], child, rows));
  if (value !== null && typeof value === "object") {
    const object: JsonObject = {};
    for (const [key, child] of Object.entries(value)) object[key] = mergeNode(kind, [...path, key], child, rows);
    return object;
  }
  if (typeof value !== "number") return value;
  const rule = mergeRuleOf(kind, path);
  if (rule === "last") return value;
  const numbers = rows.map((row) => at(row, path)).filter((n): n is number => typeof n === "number");
  const sum = numbers.reduce((total, n) => total + n, 0);
  return round(rule === "sum" ? sum : sum / numbers.length);
}

function at(value: JsonValue, path: readonly string[]): JsonValue | undefined {
  let current: JsonValue | undefined = value;
  for (const step of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = Array.isArray(current) ? current[Number(step)] : current[step];
  }
  return current;
}

/** Readings carry at most a few decimals; an average need not carry fifteen. */
function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
