import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/index.js";
import { type HistoryRecord, openStore, type Store } from "../../src/store/index.js";
import { CHARGER, FIVE_MINUTES, points, SERIAL, T0 } from "./helpers/history-records.js";
import { tempDir } from "./helpers/temp-dir.js";

const dir = tempDir();
afterAll(() => dir.remove());
const DAY = 86_400_000;

let store: Store;
let n = 0;
beforeEach(() => {
  store = openStore(dir.path(`retention-${n++}.db`));
});
afterEach(() => store.close());

const retention = (rules: Record<string, unknown>) =>
  configSchema.parse({ store: { retention: rules } }).store.retention;

describe("history retention", () => {
  it("keeps everything by default", () => {
    store.history.write(points(288));
    expect(store.history.applyRetention(retention({}), T0 + 400 * DAY)).toEqual({ deleted: 0, merged: 0 });
    expect([...store.history.query({ kind: "inverter.point" })]).toHaveLength(288);
  });

  it("deletes rows older than keep, for that kind only", () => {
    store.history.write([...points(288), ...points(288, T0 + DAY)]);
    const flows: HistoryRecord[] = [{ kind: "flow.day", device: SERIAL, at: T0, key: "", data: { "0": 1.5 } }];
    store.history.write(flows);
    const result = store.history.applyRetention(retention({ "inverter.point": { keep: "1d" } }), T0 + 2 * DAY);
    expect(result).toEqual({ deleted: 288, merged: 0 });
    const left = [...store.history.query({ kind: "inverter.point" })];
    expect(left[0]?.at).toBe(T0 + DAY);
    expect([...store.history.query({ kind: "flow.day" })]).toEqual(flows);
  });

  it("downsamples old points to one per half hour: counters from the last point, power averaged", () => {
    const day = points(288);
    store.history.write(day);
    const now = T0 + 2 * DAY;
    // Everything before T0 + 12 h is old enough.
    const result = store.history.applyRetention(retention({ "inverter.point": { downsample_after: "36h" } }), now);
    expect(result).toEqual({ deleted: 0, merged: 24 * 5 });
    const rows = [...store.history.query({ kind: "inverter.point" })];
    expect(rows).toHaveLength(24 + 144);
    const first = rows[0];
    const lastOfBucket = day[5];
    expect(first?.at).toBe(lastOfBucket?.at);
    // Counters as the bucket's last point had them: today's and lifetime totals stay exact.
    expect(first?.data.today).toEqual(lastOfBucket?.data.today);
    expect(first?.data.total).toEqual(lastOfBucket?.data.total);
    // Power averaged over the six points (100..105), text and flags from the last.
    expect(first?.data).toMatchObject({
      status: "NORMAL",
      is_metered: true,
      power: { solar: { power: 102.5, arrays: [{ power: 102.5, array: 1 }] }, consumption: { power: 269.5 } },
    });
    // Newer points are untouched.
    expect(rows.slice(24)).toEqual(day.slice(144));
    // A second run finds nothing more to merge, and the summary does not call half hours gaps.
    expect(store.history.applyRetention(retention({ "inverter.point": { downsample_after: "36h" } }), now)).toEqual({
      deleted: 0,
      merged: 0,
    });
    expect(store.history.summary()[0]).toMatchObject({ count: 168, gaps: 0 });
  });

  it("merges charger meter records per meter: registers keep the last value, intervals add up", () => {
    const meter = (i: number, key: string): HistoryRecord => ({
      kind: "ev.meter",
      device: CHARGER,
      at: T0 + i * 60_000,
      key,
      data: { "4": 100 + i, "8": 0.5, "13": 7000 + 10 * i },
    });
    store.history.write([0, 1, 2, 3].flatMap((i) => [meter(i, "1"), meter(i, "2")]));
    const result = store.history.applyRetention(
      retention({ "ev.meter": { downsample_after: "1h" } }),
      T0 + 2 * 3_600_000,
    );
    expect(result.merged).toBe(6);
    const rows = [...store.history.query({ kind: "ev.meter" })];
    expect(rows.map((r) => [r.key, r.at, r.data])).toEqual([
      ["1", T0 + 3 * 60_000, { "4": 103, "8": 2, "13": 7015 }],
      ["2", T0 + 3 * 60_000, { "4": 103, "8": 2, "13": 7015 }],
    ]);
  });

  it("refuses downsample_after on a kind that is not downsampled, and reads days", () => {
    expect(() => retention({ "flow.day": { downsample_after: "1d" } })).toThrow(/flow.day is not downsampled/);
    expect(retention({ ems: { keep: "90d" } })).toEqual({ ems: { keep: 90 * DAY } });
    expect(() => retention({ "inverter.pointz": { keep: "1d" } })).toThrow();
    expect(FIVE_MINUTES).toBe(300_000);
  });
});
