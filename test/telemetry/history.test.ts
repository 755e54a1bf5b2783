import { afterEach, describe, expect, it } from "vitest";
import type { HistoryRecord } from "../../src/store/index.js";
import { CHARGER, EMS, type Harness, HOUSE, SMART, START, startHarness } from "./harness.js";

const FIVE_MINUTES = 300_000;

function rowsOf(history: readonly HistoryRecord[], kind: HistoryRecord["kind"], device: string): HistoryRecord[] {
  return history.filter((row) => row.kind === kind && row.device === device);
}

describe("telemetry's answers as history rows", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it("hands over every new 5-minute data point once, from the same requests that give the counters", async () => {
    h = await startHarness();
    const { history } = await h.start();
    const first = rowsOf(history, "inverter.point", HOUSE);
    // The first poll jumps to today's last page: the points of that page, the newest at 08:55 UTC.
    expect(first.at(-1)?.at).toBe(START - FIVE_MINUTES);
    const before = h.requests.filter((r) => r.endpoint === "Get Inverter Data Points").length;

    await h.advance(60 * 60_000);
    const points = rowsOf(history, "inverter.point", HOUSE).map((row) => row.at);
    expect(new Set(points).size).toBe(points.length);
    // From the page the first poll jumped to (08:00 UTC, 09:00 in London) on, every point once, in
    // order; the hours it jumped over are the gap backfill's job.
    const expected: number[] = [];
    for (let at = START - 60 * 60_000; at <= START + 55 * 60_000; at += FIVE_MINUTES) expected.push(at);
    expect(points.filter((at) => at >= START - 60 * 60_000)).toEqual(expected);
    // One request per 5-minute counters poll, plus one when a page fills: no second fetch for the history.
    const after = h.requests.filter((r) => r.endpoint === "Get Inverter Data Points").length;
    expect(after - before).toBeLessThanOrEqual(13);
    expect(h.requests.some((r) => r.endpoint === "Get Latest Meter Data")).toBe(false);
  });

  it("keeps live data, EMS data, charger meter records, sessions and smart device points at their own times", async () => {
    h = await startHarness();
    const { history } = await h.start();
    await h.advance(10 * 60_000);
    const live = rowsOf(history, "inverter.live", HOUSE);
    expect(live.length).toBeGreaterThan(5);
    // One row per reading, at the time the cloud gave it (a minute apart), not the time of the poll.
    expect(live.every((row) => row.at % 60_000 === 0 && !("time" in row.data))).toBe(true);
    expect(new Set(live.map((row) => row.at)).size).toBe(live.length);
    expect(rowsOf(history, "ems", EMS).length).toBeGreaterThan(5);
    const meter = rowsOf(history, "ev.meter", CHARGER);
    expect(meter.length).toBeGreaterThan(0);
    expect(meter[0]?.key).toBe("0");
    expect(Object.keys(meter[0]?.data ?? {})).toContain("Energy.Active.Import.Register");
    expect(rowsOf(history, "ev.session", CHARGER).length).toBeGreaterThan(0);
    expect(rowsOf(history, "smart.data", SMART).length).toBeGreaterThan(0);
  });
});
