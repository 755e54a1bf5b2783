import type { Battery } from "../optimiser/index.js";
import type { PeriodSavings, SavingsSummary } from "../ports/index.js";
import type { History } from "../store/index.js";
import { addDays, dayOf, dayStartMs, SLOT_MS } from "../time/index.js";
import { readMeteredHouse } from "./metered-slots.js";
import { computeSavings, type SavingsTariffs } from "./savings.js";

export interface SavingsSummaryOptions {
  readonly tariffs: SavingsTariffs;
  readonly timeZone: string;
  readonly battery: Battery;
}

/**
 * Yesterday's and this month's savings at an instant, for the daemon's sensors. Reading a month
 * of points is not free, and the figures change only as half-hours are metered: the answer is
 * kept for the half-hour it was asked in.
 */
export function savingsSummary(
  history: Pick<History, "query">,
  options: SavingsSummaryOptions,
): (now: number) => SavingsSummary | undefined {
  let kept: { slot: number; summary: SavingsSummary } | undefined;
  return (now) => {
    const slot = Math.floor(now / SLOT_MS);
    if (kept?.slot === slot) return kept.summary;
    const summary = summaryAt(history, options, now);
    kept = { slot, summary };
    return summary;
  };
}

function summaryAt(history: Pick<History, "query">, options: SavingsSummaryOptions, now: number): SavingsSummary {
  const { timeZone } = options;
  const today = dayOf(now, timeZone);
  const yesterday = addDays(today, -1);
  const monthStart = `${today.slice(0, 8)}01`;
  const from = yesterday < monthStart ? yesterday : monthStart;
  // Complete half-hours only: the one under way is not metered yet.
  const house = readMeteredHouse(history, dayStartMs(from, timeZone), Math.floor(now / SLOT_MS) * SLOT_MS);
  const { days, months } = computeSavings(house, options.tariffs, {
    from,
    to: today,
    timeZone,
    battery: options.battery,
  });
  const day = days.find((one) => one.day === yesterday);
  const month = months.find((one) => one.month === today.slice(0, 7));
  const ecoDays = days.filter((one) => one.day >= monthStart);
  const result: { yesterday?: PeriodSavings; month?: PeriodSavings } = {};
  if (day)
    result.yesterday = {
      since: dayStartMs(yesterday, timeZone),
      vsNoBattery: day.savedVsNoBattery,
      vsEcoOnly: day.savedVsEcoOnly,
    };
  if (month)
    result.month = {
      since: dayStartMs(monthStart, timeZone),
      vsNoBattery: month.savedVsNoBattery,
      // Only when every day of the month so far has an eco-only figure: a sum with holes misleads.
      vsEcoOnly: ecoDays.every((one) => one.savedVsEcoOnly !== null) ? month.savedVsEcoOnly : null,
    };
  return result;
}
