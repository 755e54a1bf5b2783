import type { DailyEnergy, HistorySavings } from "../../api-types.js";

/**
 * One local day as the History page shows it (chart, table and CSV read the same rows): the energy
 * and cost of the scope shown (an inverter, a plant or the house: its inverters' rows summed), then
 * the house's metered cost and savings (every inverter's).
 */
export interface DailyRow {
  /** Epoch ms of the day's local midnight. */
  readonly start: number;
  /** YYYY-MM-DD in the daemon's zone. */
  readonly day: string;
  readonly importKwh: number | null;
  readonly exportKwh: number | null;
  /** Export less import, as the MQTT grid entities count (export positive). */
  readonly gridNetKwh: number | null;
  readonly cost: number | null;
  /** How many of the scope's inverters had a row this day (the figures sum theirs). */
  readonly inverters: number;
  /** The house's metered cost, standing charge included: what its savings are worked out from. */
  readonly houseCost: number | null;
  readonly savedVsNoBattery: number | null;
  readonly savedVsEcoOnly: number | null;
}

const round = (value: number | null | undefined, places: number): number | null =>
  value === null || value === undefined ? null : Math.round(value * 10 ** places) / 10 ** places;

/** YYYY-MM-DD of an instant in a zone (the browser's without one). */
export function isoDay(ms: number, timeZone: string | undefined): string {
  const parts = new Intl.DateTimeFormat("en", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(ms);
  const part = (type: string) => parts.find((one) => one.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

export function dailyRows(days: DailyEnergy): DailyRow[] {
  const saved = new Map((days.savings?.days ?? []).map((one) => [one.day, one]));
  return days.time.map((seconds, index) => {
    const start = seconds * 1000;
    const day = isoDay(start, days.timeZone ?? undefined);
    const importKwh = round(days.importKwh[index], 3);
    const exportKwh = round(days.exportKwh[index], 3);
    const savings = saved.get(day);
    return {
      start,
      day,
      importKwh,
      exportKwh,
      gridNetKwh: importKwh === null || exportKwh === null ? null : round(exportKwh - importKwh, 3),
      cost: round(days.cost[index], 2),
      inverters: days.inverters[index] ?? 0,
      houseCost: round(savings?.actual, 2),
      savedVsNoBattery: round(savings?.savedVsNoBattery, 2),
      savedVsEcoOnly: round(savings?.savedVsEcoOnly, 2),
    };
  });
}

/** The months' savings that fall within the rows shown. */
export function monthsShown(savings: HistorySavings | null, rows: readonly DailyRow[]): HistorySavings["months"] {
  const months = new Set(rows.map((row) => row.day.slice(0, 7)));
  return (savings?.months ?? []).filter((month) => months.has(month.month));
}
