import { describe, expect, it } from "vitest";
import { charger, DAY_MS, HOUR_MS, MINUTE_MS, meter, nextVisit, reading, START } from "./helpers.js";

const FIVE_MINUTES = 5 * MINUTE_MS;
/** The first five-minute boundary at or after `ms`. */
const boundary = (ms: number) => Math.ceil(ms / FIVE_MINUTES) * FIVE_MINUTES;
/** The register in Wh (0) and powers in kW (5), as public clients read the real service's; the rest as OCPP implies. */
const UNITS: Record<number, number | null> = { 4: 0, 13: 5, 1: 10, 2: 10, 15: 5, 21: 11, 11: null, 20: 12, 19: 15 };

describe("meter data", () => {
  it("has a record every five minutes, oldest first, in [start, end)", () => {
    const model = charger();
    const from = START - DAY_MS;
    const records = meter(model, from, START);
    expect(records.length).toBe(288);
    const times = records.map((r) => Date.parse(r.timestamp));
    expect(times[0]).toBe(from);
    times.forEach((t, i) => {
      expect(t).toBe(from + i * FIVE_MINUTES);
    });
    expect(records.every((r) => r.meter_id === 0)).toBe(true);
  });

  it("starts at the commission date and stops at the present", () => {
    const commissionDate = Date.UTC(2025, 2, 1, 0, 0);
    const model = charger({ commissionDate });
    const records = meter(model, commissionDate - DAY_MS, START + DAY_MS);
    expect(records[0]?.timestamp).toBe("2025-03-01T00:00:00Z");
    expect(records.at(-1)?.timestamp).toBe("2025-03-03T12:00:00Z");
    model.advanceTo(START + HOUR_MS);
    expect(meter(model, START, START + DAY_MS).length).toBe(13);
  });

  it("uses the units of the reference's tables", () => {
    const model = charger();
    const visit = nextVisit(START - 2 * DAY_MS);
    const at = boundary(visit.arriveMs + HOUR_MS);
    const [record] = meter(model, at, at + 1);
    expect(record?.measurements.length).toBe(9);
    for (const m of record?.measurements ?? []) expect(m.unit, `measurand ${m.measurand}`).toBe(UNITS[m.measurand]);
  });

  it("filters by measurand and meter id", () => {
    const model = charger();
    const records = meter(model, START - DAY_MS, START, [4, 13]);
    expect(records.every((r) => r.measurements.map((m) => m.measurand).join() === "4,13")).toBe(true);
    expect(model.meterData({ startMs: START - DAY_MS, endMs: START, measurands: [4], meterIds: [1] })).toEqual([]);
  });

  it("reports the state of charge only while a car is plugged in", () => {
    const model = charger();
    const visit = nextVisit(START - 2 * DAY_MS);
    const during = meter(model, visit.arriveMs, visit.departMs, [19]);
    expect(during.length).toBe((boundary(visit.departMs) - boundary(visit.arriveMs)) / FIVE_MINUTES);
    const away = meter(model, visit.departMs, visit.departMs + 4 * HOUR_MS, [19]);
    expect(away).toEqual([]);
  });

  it("shows charging power and a rising register while a session runs", () => {
    const model = charger();
    const from = boundary(nextVisit(START).arriveMs);
    model.advanceTo(from + 2 * HOUR_MS);
    const records = meter(model, from, from + 2 * HOUR_MS + 1, [4, 13]);
    expect(records.length).toBe(25);
    // 6 A at 230 V is 1.38 kW; two hours of it put 2760 Wh on the register.
    expect(reading(records[1] ?? { measurements: [] }, 13)).toBe((6 * 230) / 1000);
    const first = reading(records[0] ?? { measurements: [] }, 4) ?? 0;
    const last = reading(records.at(-1) ?? { measurements: [] }, 4) ?? 0;
    expect(last - first).toBeCloseTo(1380 * 2, 0);
  });

  it("history is the same for the same seed and differs for another", () => {
    const window = [START - 30 * DAY_MS, START] as const;
    const a = meter(charger(), ...window);
    const b = meter(charger(), ...window);
    expect(b).toEqual(a);
    const other = meter(charger({}, undefined, 99), ...window, [4]);
    expect(other.map((r) => reading(r, 4))).not.toEqual(a.map((r) => reading(r, 4)));
  });

  it("the live part does not depend on how often time is advanced", () => {
    const coarse = charger();
    coarse.advanceTo(START + 3 * DAY_MS);
    const fine = charger();
    for (let t = START; t <= START + 3 * DAY_MS; t += 7 * MINUTE_MS + 13_000) fine.advanceTo(t);
    fine.advanceTo(START + 3 * DAY_MS);
    expect(meter(fine, START, START + 3 * DAY_MS)).toEqual(meter(coarse, START, START + 3 * DAY_MS));
    expect(fine.sessions({})).toEqual(coarse.sessions({}));
  });

  it("records nothing while the charger is offline", () => {
    const model = charger();
    model.advanceTo(START + MINUTE_MS);
    model.setOffline(true);
    model.advanceTo(START + HOUR_MS);
    model.setOffline(false);
    model.advanceTo(START + 2 * HOUR_MS);
    const times = meter(model, START, START + 2 * HOUR_MS + 1).map((r) => r.timestamp);
    // 13:00 passed while the charger was still offline.
    expect(times.slice(0, 2)).toEqual(["2025-03-03T12:00:00Z", "2025-03-03T13:05:00Z"]);
    expect(times.length).toBe(13);
  });
});
