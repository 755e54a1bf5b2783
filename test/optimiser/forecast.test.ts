import { describe, expect, it } from "vitest";
import { forecastLoad, forecastSeries, forecastSolar, type HalfHourSample } from "../../src/optimiser/index.js";
import { SLOT_MS } from "../../src/time/local-time.js";

const DAY = 48;
// Monday 2 June 2025, 00:00 in London (BST).
const MONDAY = Date.UTC(2025, 5, 1, 23);

function series(days: number, value: (slotOfDay: number, dayIndex: number) => number): HalfHourSample[] {
  return Array.from({ length: days * DAY }, (_, index) => ({
    start: MONDAY + index * SLOT_MS,
    kwh: value(index % DAY, Math.floor(index / DAY)),
  }));
}

describe("forecasts", () => {
  it("repeat a steady daily pattern, aligned to the local clock", () => {
    const samples = series(14, (slot) => (slot >= 34 && slot < 40 ? 1.2 : 0.2));
    const ahead = forecastSeries(samples, { from: MONDAY + 14 * DAY * SLOT_MS, timeZone: "Europe/London" });
    expect(ahead).toHaveLength(96);
    for (let index = 0; index < 96; index++) {
      const slot = index % DAY;
      expect(ahead[index]).toBeCloseTo(slot >= 34 && slot < 40 ? 1.2 : 0.2, 9);
    }
  });

  it("see only the past: samples at or after the first slot are ignored", () => {
    const past = series(7, () => 0.3);
    const from = MONDAY + 7 * DAY * SLOT_MS;
    const future = [
      { start: from, kwh: 50 },
      { start: from + SLOT_MS * 10, kwh: 50 },
    ];
    expect(forecastLoad([...past, ...future], { from, timeZone: "Europe/London" })).toEqual(
      forecastLoad(past, { from, timeZone: "Europe/London" }),
    );
  });

  it("tell weekends from weekdays in the house's load", () => {
    const samples = series(28, (slot, dayIndex) => (dayIndex % 7 >= 5 ? 0.5 : slot >= 34 && slot < 40 ? 1.5 : 0.1));
    const saturday = MONDAY + 33 * DAY * SLOT_MS;
    const ahead = forecastLoad(samples, { from: saturday, timeZone: "Europe/London", correctionDays: 0 });
    expect(ahead[36]).toBeGreaterThan(0.45);
    expect(ahead[36]).toBeLessThan(0.65);
    // Sunday too, and Monday's evening peak again.
    expect(ahead[DAY + 36]).toBeGreaterThan(0.45);
    expect(ahead[DAY + 36]).toBeLessThan(0.65);
  });

  it("scale the next hours by how the last day compared with the profile", () => {
    const samples = series(14, (_, dayIndex) => (dayIndex === 13 ? 0.4 : 0.2));
    const ahead = forecastSolar(samples, { from: MONDAY + 14 * DAY * SLOT_MS, timeZone: "Europe/London" });
    expect(ahead[0]).toBeGreaterThan(0.3);
    expect(ahead[95]).toBeLessThan(ahead[0] ?? 0);
  });

  it("carry the last half-hour's departure into the next ones, fading", () => {
    const from = MONDAY + 14 * DAY * SLOT_MS;
    const steady = series(14, () => 0.2);
    const spike = [...steady.slice(0, -1), { start: from - SLOT_MS, kwh: 1.2 }];
    const plain = forecastSeries(steady, { from, timeZone: "Europe/London", correctionDays: 0 });
    const ahead = forecastSeries(spike, {
      from,
      timeZone: "Europe/London",
      correctionDays: 0,
      nowcastHalfLifeHours: 1,
    });
    const lift = (index: number) => (ahead[index] ?? 0) - (plain[index] ?? 0);
    expect(lift(0)).toBeGreaterThan(0.5);
    expect(lift(1)).toBeCloseTo(lift(0) / Math.SQRT2, 9);
    expect(lift(20)).toBeLessThan(0.001);
  });

  it("give zeros with no history", () => {
    expect(forecastLoad([], { from: MONDAY, timeZone: "Europe/London" })).toEqual(Array(96).fill(0));
  });
});
