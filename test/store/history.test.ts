import Database from "better-sqlite3";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { DataError, type HistoryRecord, openStore, type Store } from "../../src/store/index.js";
import { CHARGER, FIVE_MINUTES, pointData, points, SERIAL, T0 } from "./helpers/history-records.js";
import { tempDir } from "./helpers/temp-dir.js";

const dir = tempDir();
afterAll(() => dir.remove());

let store: Store;
let path: string;
let n = 0;
beforeEach(() => {
  path = dir.path(`history-${n++}.db`);
  store = openStore(path);
});
afterEach(() => store.close());

const session = (stopped: boolean): HistoryRecord => ({
  kind: "ev.session",
  device: CHARGER,
  at: T0,
  key: "",
  data: {
    started_by: "PLUG_AND_GO",
    meter_start: 1200.5,
    started_at: "2025-06-01T00:00:00Z",
    stopped_by: stopped ? "PLUG_AND_GO" : null,
    meter_stop: stopped ? 1212.25 : null,
    stopped_at: stopped ? "2025-06-01T03:10:00Z" : null,
    stop_reason: stopped ? "EVDisconnected" : null,
  },
});

describe("history", () => {
  it("reads back what it wrote, in time order, with the data exactly as given", () => {
    const written = points(300);
    expect(store.history.write([...written].reverse())).toEqual({ inserted: 300, updated: 0, unchanged: 0 });
    expect([...store.history.query({ kind: "inverter.point" })]).toEqual(written);
  });

  it("is idempotent: the same records again change nothing, also after reopening", () => {
    store.history.write(points(50));
    expect(store.history.write(points(50))).toEqual({ inserted: 0, updated: 0, unchanged: 50 });
    store.close();
    store = openStore(path);
    expect(store.history.write(points(60))).toEqual({ inserted: 10, updated: 0, unchanged: 50 });
    expect([...store.history.query({ kind: "inverter.point" })]).toHaveLength(60);
  });

  it("updates a row whose data changed: a session that stopped, a fault that cleared", () => {
    const fault = (end: string | null): HistoryRecord => ({
      kind: "inverter.event",
      device: SERIAL,
      at: T0,
      key: "Grid Over Voltage",
      data: { end_time: end },
    });
    expect(store.history.write([session(false), fault(null)])).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(store.history.write([session(true), fault("2025-06-01T00:20:00Z")])).toEqual({
      inserted: 0,
      updated: 2,
      unchanged: 0,
    });
    expect([...store.history.query({ kind: "ev.session" })]).toEqual([session(true)]);
    expect([...store.history.query({ kind: "inverter.event" })].map((r) => r.data)).toEqual([
      { end_time: "2025-06-01T00:20:00Z" },
    ]);
    expect(store.history.write([session(true)])).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
  });

  it("keeps rows apart by kind, device and key at the same time", () => {
    const meter = (key: string, value: number): HistoryRecord => ({
      kind: "ev.meter",
      device: CHARGER,
      at: T0,
      key,
      data: { "4": value },
    });
    const result = store.history.write([
      meter("0", 1),
      meter("1", 2),
      { ...meter("0", 3), device: "other" },
      { ...points(1)[0], at: T0 } as HistoryRecord,
    ]);
    expect(result.inserted).toBe(4);
    expect([...store.history.query({ kind: "ev.meter", device: CHARGER })].map((r) => [r.key, r.data])).toEqual([
      ["0", { "4": 1 }],
      ["1", { "4": 2 }],
    ]);
  });

  it("queries a time range (from inclusive, to exclusive) and one device, merging devices in time order", () => {
    store.history.write([...points(10, T0, "A"), ...points(10, T0 + 60_000, "B")]);
    const range = [
      ...store.history.query({ kind: "inverter.point", from: T0 + 2 * FIVE_MINUTES, to: T0 + 4 * FIVE_MINUTES }),
    ];
    expect(range.map((r) => [r.device, r.at - T0])).toEqual([
      ["A", 600_000],
      ["B", 660_000],
      ["A", 900_000],
      ["B", 960_000],
    ]);
    expect([...store.history.query({ kind: "inverter.point", device: "B" })]).toEqual(points(10, T0 + 60_000, "B"));
    expect([...store.history.query({ kind: "inverter.point", device: "C" })]).toEqual([]);
  });

  it("pages through more rows than one read holds without losing or repeating one", () => {
    const many = points(4_500);
    store.history.write(many);
    const read = [...store.history.query({ kind: "inverter.point" })];
    expect(read.map((r) => r.at)).toEqual(many.map((r) => r.at));
  });

  it("keeps data of another shape (a missing battery, an extra array) apart from the usual one", () => {
    const odd: HistoryRecord[] = [
      { kind: "inverter.point", device: SERIAL, at: T0, key: "", data: { status: "LOST" } },
      {
        kind: "inverter.point",
        device: SERIAL,
        at: T0 + FIVE_MINUTES,
        key: "",
        data: { ...pointData(1), extra: [1, "two", null, { deep: [true] }], empty: {}, none: [] },
      },
      { kind: "inverter.point", device: SERIAL, at: T0 + 2 * FIVE_MINUTES, key: "", data: pointData(2) },
    ];
    store.history.write(odd);
    expect([...store.history.query({ kind: "inverter.point" })]).toEqual(odd);
  });

  it("stores a data point compactly: keys once per shape, values as an array", () => {
    store.history.write(points(10));
    const db = new Database(path, { readonly: true });
    const shapes = db.prepare("SELECT COUNT(*) AS n FROM history_shape").get() as { n: number };
    const row = db.prepare("SELECT data FROM history LIMIT 1").get() as { data: string };
    db.close();
    expect(shapes.n).toBe(1);
    expect(row.data.startsWith('["NORMAL",100,1,300.7')).toBe(true);
    expect(row.data.length).toBeLessThan(JSON.stringify(pointData(0)).length / 2);
  });

  it("refuses a batch with a value JSON cannot keep, writing none of it", () => {
    const batch = points(5);
    const bad = { ...batch[2], data: { power: Number.NaN } } as HistoryRecord;
    expect(() => store.history.write([...batch.slice(0, 2), bad, ...batch.slice(3)])).toThrow(DataError);
    expect(() => store.history.write([{ kind: "nope" as "ems", device: SERIAL, at: T0, key: "", data: {} }])).toThrow(
      /unknown kind "nope"/,
    );
    expect([...store.history.query({ kind: "inverter.point" })]).toEqual([]);
    // The rolled-back batch made a new shape and source; a later write must not use their ids.
    expect(store.history.write(batch)).toEqual({ inserted: 5, updated: 0, unchanged: 0 });
    expect([...store.history.query({ kind: "inverter.point" })]).toEqual(batch);
  });

  it("summarises per device and kind, counting holes longer than twice the cadence as gaps", () => {
    const day = points(288);
    const withHoles = day.filter((_, i) => i !== 10 && !(i >= 100 && i < 110));
    store.history.write(withHoles);
    store.history.write([session(true)]);
    expect(store.history.summary()).toEqual([
      { kind: "ev.session", device: CHARGER, first: T0, last: T0, count: 1, gaps: 0 },
      // One missing point is no gap (10 minutes = twice the cadence); ten missing points are one.
      { kind: "inverter.point", device: SERIAL, first: T0, last: T0 + 287 * FIVE_MINUTES, count: 277, gaps: 1 },
    ]);
  });

  it("records fetched days with their records in one transaction; a complete day stays complete", () => {
    const result = store.history.markFetched(
      [
        { kind: "inverter.point", device: SERIAL, day: "2025-06-01", complete: true },
        { kind: "inverter.point", device: SERIAL, day: "2025-06-02", complete: false },
      ],
      points(3),
    );
    expect(result).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
    store.history.markFetched([{ kind: "inverter.point", device: SERIAL, day: "2025-06-01", complete: false }]);
    expect(store.history.completeDays("inverter.point", SERIAL)).toEqual(new Set(["2025-06-01"]));
    store.history.markFetched([{ kind: "inverter.point", device: SERIAL, day: "2025-06-02", complete: true }]);
    expect(store.history.completeDays("inverter.point", SERIAL)).toEqual(new Set(["2025-06-01", "2025-06-02"]));
    expect(store.history.completeDays("flow.day", SERIAL)).toEqual(new Set());
    expect(() =>
      store.history.markFetched(
        [{ kind: "flow.day", device: SERIAL, day: "1 June", complete: true }],
        points(1, T0 + 1),
      ),
    ).toThrow(/YYYY-MM-DD/);
    expect([...store.history.query({ kind: "inverter.point" })]).toHaveLength(3);
  });

  it("answers range queries and the summary from the primary key, without sorting", () => {
    const db = new Database(path, { readonly: true });
    const plan = (sql: string) =>
      db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => (row as { detail: string }).detail)
        .join(" | ");
    const range = plan(
      "SELECT at, key, shape, data FROM history WHERE source = 1 AND at >= 0 AND at < 10 AND (at > -1 OR key > '') ORDER BY at, key LIMIT 10",
    );
    const totals = plan("SELECT source, MIN(at), MAX(at), COUNT(*) FROM history GROUP BY source");
    db.close();
    expect(range).toContain("SEARCH history USING PRIMARY KEY (source=? AND at>? AND at<?)");
    expect(range).not.toContain("TEMP B-TREE");
    expect(totals).not.toContain("TEMP B-TREE");
  });
});
