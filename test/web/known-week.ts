import { type HistoryRecord, openStore } from "../../src/store/index.js";
import { addDays, dayEndMs, dayStartMs, wallClock } from "../../src/time/index.js";

/** A device the account does not list (nothing backfills it), with a known week of half-hours. */
export const WEEK_DEVICE = "WEEK0001";
/** The demo account's zone: the days below are its local days. */
export const WEEK_ZONE = "Europe/London";
/** 22 to 28 October 2026: the clocks go back on the 25th, a day of 50 half-hours. */
export const WEEK_DAYS = Array.from({ length: 7 }, (_, index) => addDays("2026-10-22", index));
const HALF_HOUR = 1_800_000;

/** One half-hour's flows (kWh by flow type key), from its local hour and the day's index. */
export function halfHourFlows(start: number, dayIndex: number): Record<string, number> {
  const minutes = wallClock(start, WEEK_ZONE).minutes;
  const hour = minutes / 60;
  const slot = Math.floor(minutes / 30);
  const sunny = hour >= 10 && hour < 15;
  return {
    "0": sunny ? 0.2 : 0,
    "1": sunny ? 0.1 : 0,
    "2": sunny ? 0.3 + dayIndex * 0.05 : 0,
    "3": 0.05 + (slot % 5) * 0.02,
    "4": hour < 5 ? 0.6 : 0,
    "5": hour >= 16 && hour < 23 ? 0.25 : 0,
    "6": hour >= 17 && hour < 19 ? 0.4 : 0,
  };
}

/** Grid import and export, home load and solar of a half-hour's flows, kWh. */
export function meteredOf(flows: Record<string, number>): {
  import: number;
  export: number;
  load: number;
  solar: number;
} {
  const value = (key: string) => flows[key] ?? 0;
  return {
    import: value("3") + value("4"),
    export: value("2") + value("6"),
    load: value("0") + value("3") + value("5"),
    solar: value("0") + value("1") + value("2"),
  };
}

/**
 * The week through the store's own API: each half-hour's flows, each day's (their sums), and a
 * point at the end of every half-hour with the lifetime counters those flows add up to (what the
 * savings are metered from), so that the History page lists the device.
 */
export function fillWeek(storePath: string): void {
  const store = openStore(storePath);
  const records: HistoryRecord[] = [];
  const counters = { import: 100, export: 50, load: 300, solar: 200 };
  const point = (at: number, solarW: number): HistoryRecord => ({
    kind: "inverter.point",
    device: WEEK_DEVICE,
    at,
    key: "",
    data: {
      power: { solar: { power: solarW }, grid: { power: -300 }, battery: { percent: 50 } },
      total: {
        grid: { import: counters.import, export: counters.export },
        consumption: counters.load,
        solar: counters.solar,
      },
    },
  });
  // The counters before the week's first half-hour.
  records.push(point(dayStartMs(WEEK_DAYS[0] ?? "", WEEK_ZONE) - 60_000, 0));
  WEEK_DAYS.forEach((day, dayIndex) => {
    const totals: Record<string, number> = {};
    for (let at = dayStartMs(day, WEEK_ZONE); at < dayEndMs(day, WEEK_ZONE); at += HALF_HOUR) {
      const flows = halfHourFlows(at, dayIndex);
      records.push({ kind: "flow.half_hour", device: WEEK_DEVICE, at, key: "", data: flows });
      for (const [key, value] of Object.entries(flows)) totals[key] = (totals[key] ?? 0) + value;
      const metered = meteredOf(flows);
      counters.import += metered.import;
      counters.export += metered.export;
      counters.load += metered.load;
      counters.solar += metered.solar;
      records.push(point(at + HALF_HOUR - 60_000, flows["0"] ? 1200 : 0));
    }
    records.push({ kind: "flow.day", device: WEEK_DEVICE, at: dayStartMs(day, WEEK_ZONE), key: "", data: totals });
  });
  store.history.write(records);
  store.close();
}

/** The store's own daily totals for the week: grid import (flows 3 and 4) and export (2 and 6), kWh. */
export function storedDailyTotals(storePath: string): { at: number; importKwh: number; exportKwh: number }[] {
  const store = openStore(storePath);
  try {
    return [
      ...store.history.query({
        kind: "flow.day",
        device: WEEK_DEVICE,
        from: dayStartMs(WEEK_DAYS[0] ?? "", WEEK_ZONE),
        to: dayEndMs(WEEK_DAYS[6] ?? "", WEEK_ZONE),
      }),
    ].map((record) => {
      const value = (key: string) => Number(record.data[key]);
      return { at: record.at, importKwh: value("3") + value("4"), exportKwh: value("2") + value("6") };
    });
  } finally {
    store.close();
  }
}

/** The demo rules' prices (test/web/demo.ts): import by local zones, export fixed. */
export function demoImportPrice(at: number): number {
  const minutes = wallClock(at, WEEK_ZONE).minutes;
  if (minutes >= 30 && minutes < 330) return 0.085;
  if (minutes >= 960 && minutes < 1140) return 0.35;
  return 0.27;
}
export const DEMO_EXPORT_PRICE = 0.15;
