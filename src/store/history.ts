import type { Database, Statement, Transaction } from "better-sqlite3";
import { StoreError, toStoreError } from "./errors.js";
import { DataError, HistoryCodec } from "./history-codec.js";
import { applyRetention, type RetentionResult, type RetentionRules } from "./history-retention.js";
import { HistorySeries, isHistoryKind, type Series } from "./history-series.js";
import type {
  FetchedDay,
  History,
  HistoryKind,
  HistoryQuery,
  HistoryRecord,
  HistorySummaryRow,
  WriteResult,
} from "./history-types.js";

/** What the store's history offers beyond the shared History interface. */
export interface StoreHistory extends History {
  /** Deletes and downsamples old rows as the rules say; one transaction per series and day. */
  applyRetention(rules: RetentionRules, now: number): RetentionResult;
}

const PAGE = 2_000;
const MINUTE = 60_000;
/** The kinds that come at a fixed pace; a hole longer than twice it counts as a gap. */
const CADENCE: Partial<Record<HistoryKind, number>> = {
  "inverter.point": 5 * MINUTE,
  "flow.half_hour": 30 * MINUTE,
  "flow.day": 24 * 60 * MINUTE,
};
const DOWNSAMPLED_CADENCE = 30 * MINUTE;

/** Whether the summary counts gaps for this kind. */
export function hasCadence(kind: HistoryKind): boolean {
  return CADENCE[kind] !== undefined;
}

interface Row {
  at: number;
  key: string;
  shape: number;
  data: string;
}

interface SummaryRow {
  source: number;
  first: number;
  last: number;
  count: number;
}

export class SqliteHistory implements StoreHistory {
  private readonly codec: HistoryCodec;
  private readonly series: HistorySeries;
  private readonly insert: Statement<[number, number, string, number, string]>;
  private readonly update: Statement<{ source: number; at: number; key: string; shape: number; data: string }>;
  private readonly page: Statement<
    { source: number; start: number; to: number; cursorAt: number; cursorKey: string; limit: number },
    Row
  >;
  private readonly totals: Statement<[], SummaryRow>;
  private readonly gaps: Statement<{ source: number; before: number; slow: number; fast: number }, { gaps: number }>;
  private readonly markDay: Statement<[number, string, number]>;
  private readonly daysDone: Statement<[number], { day: string }>;
  private readonly writeAll: Transaction<(records: readonly HistoryRecord[]) => WriteResult>;
  private readonly markAll: Transaction<
    (days: readonly FetchedDay[], records: readonly HistoryRecord[]) => WriteResult
  >;

  constructor(
    private readonly db: Database,
    private readonly path: string,
  ) {
    this.codec = new HistoryCodec(db);
    this.series = new HistorySeries(db);
    this.insert = db.prepare("INSERT OR IGNORE INTO history (source, at, key, shape, data) VALUES (?, ?, ?, ?, ?)");
    this.update = db.prepare(
      `UPDATE history SET shape = @shape, data = @data
       WHERE source = @source AND at = @at AND key = @key AND (shape IS NOT @shape OR data IS NOT @data)`,
    );
    this.page = db.prepare(
      `SELECT at, key, shape, data FROM history
       WHERE source = @source AND at >= @start AND at < @to AND (at > @cursorAt OR key > @cursorKey)
       ORDER BY at, key LIMIT @limit`,
    );
    this.totals = db.prepare(
      "SELECT source, MIN(at) AS first, MAX(at) AS last, COUNT(*) AS count FROM history GROUP BY source",
    );
    this.gaps = db.prepare(
      `SELECT COUNT(*) AS gaps FROM (
         SELECT at, at - LAG(at) OVER (ORDER BY at) AS step FROM (SELECT DISTINCT at FROM history WHERE source = @source)
       ) WHERE step > CASE WHEN at <= @before THEN @slow ELSE @fast END`,
    );
    this.markDay = db.prepare(
      `INSERT INTO history_day (source, day, complete) VALUES (?, ?, ?)
       ON CONFLICT (source, day) DO UPDATE SET complete = MAX(complete, excluded.complete)`,
    );
    this.daysDone = db.prepare("SELECT day FROM history_day WHERE source = ? AND complete = 1");
    this.writeAll = db.transaction((records) => this.upsert(records));
    this.markAll = db.transaction((days, records) => {
      const result = this.upsert(records);
      for (const day of days) {
        this.markDay.run(this.series.idFor(day.kind, day.device), day.day, day.complete ? 1 : 0);
      }
      return result;
    });
  }

  write(records: readonly HistoryRecord[]): WriteResult {
    records.forEach(checkRecord);
    if (records.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
    return this.writing(() => this.writeAll.immediate(records));
  }

  markFetched(days: readonly FetchedDay[], records: readonly HistoryRecord[] = []): WriteResult {
    records.forEach(checkRecord);
    days.forEach(checkDay);
    return this.writing(() => this.markAll.immediate(days, records));
  }

  *query(query: HistoryQuery): IterableIterator<HistoryRecord> {
    const { kind, device, from = Number.MIN_SAFE_INTEGER, to = Number.MAX_SAFE_INTEGER } = query;
    if (!isHistoryKind(kind)) throw new RangeError(`unknown history kind "${String(kind)}"`);
    const matching = this.reading(() =>
      this.series.all(kind).filter((series) => device === undefined || series.device === device),
    );
    const streams: { rows: Generator<HistoryRecord, void>; head: HistoryRecord }[] = [];
    for (const series of matching) {
      const rows = this.rowsOf(series, from, to);
      const first = rows.next();
      if (!first.done) streams.push({ rows, head: first.value });
    }
    // Series merged by time, then device, then key: each is already in (at, key) order.
    while (streams.length > 0) {
      let best = 0;
      for (let i = 1; i < streams.length; i++) {
        if (before(streams[i]?.head, streams[best]?.head)) best = i;
      }
      const stream = streams[best];
      if (!stream) break;
      yield stream.head;
      const next = stream.rows.next();
      if (next.done) streams.splice(best, 1);
      else stream.head = next.value;
    }
  }

  summary(): HistorySummaryRow[] {
    return this.reading(() => {
      const byId = new Map(this.series.all().map((series) => [series.id, series]));
      const rows: HistorySummaryRow[] = [];
      for (const total of this.totals.all()) {
        const series = byId.get(total.source);
        if (!series) continue;
        rows.push({
          kind: series.kind,
          device: series.device,
          first: total.first,
          last: total.last,
          count: total.count,
          gaps: this.gapsOf(series),
        });
      }
      return rows.sort((a, b) => a.device.localeCompare(b.device) || a.kind.localeCompare(b.kind));
    });
  }

  completeDays(kind: HistoryKind, device: string): Set<string> {
    return this.reading(() => {
      const id = this.series.existing(kind, device);
      if (id === undefined) return new Set<string>();
      return new Set(this.daysDone.all(id).map((row) => row.day));
    });
  }

  applyRetention(rules: RetentionRules, now: number): RetentionResult {
    return this.writing(() =>
      applyRetention({ db: this.db, codec: this.codec, series: this.series.all() }, rules, now),
    );
  }

  private upsert(records: readonly HistoryRecord[]): WriteResult {
    let inserted = 0;
    let updated = 0;
    let unchanged = 0;
    for (const record of records) {
      const id = this.series.idFor(record.kind, record.device);
      const { shape, data } = this.codec.encode(record.data);
      if (this.insert.run(id, record.at, record.key, shape, data).changes === 1) inserted++;
      else if (this.update.run({ source: id, at: record.at, key: record.key, shape, data }).changes === 1) updated++;
      else unchanged++;
    }
    return { inserted, updated, unchanged };
  }

  private *rowsOf(series: Series, from: number, to: number): Generator<HistoryRecord, void, undefined> {
    let cursorAt = from - 1;
    let cursorKey = "";
    for (;;) {
      const start = Math.max(from, cursorAt);
      const rows = this.reading(() =>
        this.page.all({ source: series.id, start, to, cursorAt, cursorKey, limit: PAGE }),
      );
      for (const row of rows) {
        yield { kind: series.kind, device: series.device, at: row.at, key: row.key, data: this.decode(row) };
      }
      const last = rows[rows.length - 1];
      if (!last || rows.length < PAGE) return;
      cursorAt = last.at;
      cursorKey = last.key;
    }
  }

  private decode(row: Row): HistoryRecord["data"] {
    try {
      return this.codec.decode(row.shape, row.data);
    } catch (error) {
      if (!(error instanceof DataError || error instanceof SyntaxError)) throw toStoreError(error, this.path);
      throw new StoreError(
        "corrupt",
        this.path,
        `a history row in ${this.path} cannot be read (${error.message}): restore a backup, or move the file aside`,
        { cause: error },
      );
    }
  }

  private gapsOf(series: Series): number {
    const cadence = CADENCE[series.kind];
    if (cadence === undefined) return 0;
    const slow = 2 * Math.max(cadence, DOWNSAMPLED_CADENCE);
    return this.gaps.get({ source: series.id, before: series.downsampledBefore, slow, fast: 2 * cadence })?.gaps ?? 0;
  }

  /** A failed write rolls back, and with it any shape or series ids it created. */
  private writing<T>(operation: () => T): T {
    try {
      return operation();
    } catch (error) {
      this.codec.forget();
      this.series.forget();
      if (error instanceof DataError) throw error;
      throw toStoreError(error, this.path);
    }
  }

  private reading<T>(operation: () => T): T {
    try {
      return operation();
    } catch (error) {
      throw toStoreError(error, this.path);
    }
  }
}

function before(a: HistoryRecord | undefined, b: HistoryRecord | undefined): boolean {
  if (!a || !b) return false;
  if (a.at !== b.at) return a.at < b.at;
  if (a.device !== b.device) return a.device < b.device;
  return a.key < b.key;
}

function checkRecord(record: HistoryRecord): void {
  const problem = !isHistoryKind(record.kind)
    ? `an unknown kind "${String(record.kind)}"`
    : typeof record.device !== "string" || record.device === ""
      ? "no device"
      : !Number.isSafeInteger(record.at)
        ? `a time that is not epoch milliseconds (${String(record.at)})`
        : typeof record.key !== "string"
          ? "a key that is not text"
          : record.data === null || typeof record.data !== "object" || Array.isArray(record.data)
            ? "data that is not an object"
            : undefined;
  if (problem) throw new DataError(`a history record has ${problem}: ${JSON.stringify(record).slice(0, 200)}`);
}

function checkDay(day: FetchedDay): void {
  if (!isHistoryKind(day.kind) || !day.device || !/^\d{4}-\d{2}-\d{2}$/.test(day.day)) {
    throw new DataError(`a fetched day must name a kind, a device and a YYYY-MM-DD day: ${JSON.stringify(day)}`);
  }
}
