import type { DailyEnergy, HistorySavings } from "../../api-types.js";

/**
 * One local day as the History page shows it (chart, table and CSV read the same rows): the energy
 * and cost of the scope shown (an inverter, a plant or the house: its inverters' rows summed), its
 * own metered cost and saving (its inverters' counters), then the house's (every inverter's).
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
  /** The scope's own cost metered from its inverters' counters (no standing charge), and its saving against no battery. */
  readonly ownCost: number | null;
  readonly ownSavedVsNoBattery: number | null;
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
  const saved = new Map((days.savings?.house.days ?? []).map((one) => [one.day, one]));
  const own = new Map((days.savings?.scope.days ?? []).map((one) => [one.day, one]));
  return days.time.map((seconds, index) => {
    const start = seconds * 1000;
    const day = isoDay(start, days.timeZone ?? undefined);
    const importKwh = round(days.importKwh[index], 3);
    const exportKwh = round(days.exportKwh[index], 3);
    const savings = saved.get(day);
    const mine = own.get(day);
    return {
      start,
      day,
      importKwh,
      exportKwh,
      gridNetKwh: importKwh === null || exportKwh === null ? null : round(exportKwh - importKwh, 3),
      cost: round(days.cost[index], 2),
      inverters: days.inverters[index] ?? 0,
      ownCost: round(mine?.actual, 2),
      ownSavedVsNoBattery: round(mine?.savedVsNoBattery, 2),
      houseCost: round(savings?.actual, 2),
      savedVsNoBattery: round(savings?.savedVsNoBattery, 2),
      savedVsEcoOnly: round(savings?.savedVsEcoOnly, 2),
    };
  });
}

/** The months' savings (the house's, the scope's own, its parts') that fall within the rows shown. */
export function monthsShown(
  savings: HistorySavings | null,
  rows: readonly DailyRow[],
): {
  house: HistorySavings["house"]["months"];
  own: HistorySavings["scope"]["months"];
  parts: NonNullable<HistorySavings["parts"]>;
} {
  const months = new Set(rows.map((row) => row.day.slice(0, 7)));
  const shown = <T extends { month: string }>(list: readonly T[] | null | undefined): T[] =>
    (list ?? []).filter((one) => months.has(one.month));
  return { house: shown(savings?.house.months), own: shown(savings?.scope.months), parts: shown(savings?.parts) };
}
