import type { Battery } from "../../optimiser/index.js";
import type { PeriodSavings, SavingsSummary } from "../../rules-runtime/index.js";
import type { History } from "../../store/index.js";
import { addDays, dayOf, dayStartMs, SLOT_MS } from "../../time/index.js";
import { readMeteredHouse } from "./metered-slots.js";
import { computeSavings, type SavingsDay, type SavingsTariffs } from "./savings.js";

export interface SavingsSummaryOptions {
  readonly tariffs: SavingsTariffs;
  readonly timeZone: string;
  readonly battery: Battery;
}

/**
 * Yesterday's and this month's savings at an instant, for the daemon's sensors. The figures change
 * only as half-hours are metered, so an answer is kept for the half-hour it was asked in; and the
 * days before yesterday are read from the store once (yesterday and today are read each time, as
 * a backfill may still be filling yesterday's holes).
 */
export function savingsSummary(
  history: Pick<History, "query">,
  options: SavingsSummaryOptions,
): (now: number) => SavingsSummary | undefined {
  let kept: { slot: number; summary: SavingsSummary } | undefined;
  /** Days before yesterday already read: their figures, or null when the store had none. */
  const settled = new Map<string, SavingsDay | null>();
  return (now) => {
    const slot = Math.floor(now / SLOT_MS);
    if (kept?.slot === slot) return kept.summary;
    const summary = summaryAt(history, options, now, settled);
    kept = { slot, summary };
    return summary;
  };
}

function summaryAt(
  history: Pick<History, "query">,
  options: SavingsSummaryOptions,
  now: number,
  settled: Map<string, SavingsDay | null>,
): SavingsSummary {
  const { timeZone } = options;
  const today = dayOf(now, timeZone);
  const yesterday = addDays(today, -1);
  const monthStart = `${today.slice(0, 8)}01`;
  const first = yesterday < monthStart ? yesterday : monthStart;
  let from = first;
  while (from < yesterday && settled.has(from)) from = addDays(from, 1);
  // Complete half-hours only: the one under way is not metered yet.
  const house = readMeteredHouse(history, dayStartMs(from, timeZone), slotStart(now));
  const { days } = computeSavings(house, options.tariffs, { from, to: today, timeZone, battery: options.battery });
  const fresh = new Map(days.map((one) => [one.day, one]));
  for (let day = from; day < yesterday; day = addDays(day, 1)) settled.set(day, fresh.get(day) ?? null);
  for (const day of [...settled.keys()]) if (day < first) settled.delete(day);

  const dayOfMonth = (day: string): SavingsDay | undefined => fresh.get(day) ?? settled.get(day) ?? undefined;
  const result: { yesterday?: PeriodSavings; month?: PeriodSavings } = {};
  const last = dayOfMonth(yesterday);
  if (last)
    result.yesterday = {
      since: dayStartMs(yesterday, timeZone),
      vsNoBattery: last.savedVsNoBattery,
      vsEcoOnly: last.savedVsEcoOnly,
      ...pricing([last]),
    };
  const month: SavingsDay[] = [];
  for (let day = monthStart; day <= today; day = addDays(day, 1)) {
    const one = dayOfMonth(day);
    if (one) month.push(one);
  }
  if (month.length > 0) {
    const eco = month.map((one) => one.savedVsEcoOnly);
    result.month = {
      since: dayStartMs(monthStart, timeZone),
      vsNoBattery: month.reduce((sum, one) => sum + one.savedVsNoBattery, 0),
      // Only when every day of the month so far has an eco-only figure: a sum with holes misleads.
      vsEcoOnly: eco.every((value) => value !== null)
        ? eco.reduce((sum: number, value) => sum + (value ?? 0), 0)
        : null,
      ...pricing(month),
    };
  }
  return result;
}

/** How the days were priced, for the sensors' attributes. */
function pricing(
  days: readonly SavingsDay[],
): Pick<PeriodSavings, "prices" | "estimatedHalfHours" | "unpricedHalfHours"> {
  const estimatedHalfHours = days.reduce((sum, one) => sum + one.estimated, 0);
  const unpricedHalfHours = days.reduce((sum, one) => sum + one.unpriced, 0);
  return {
    prices: unpricedHalfHours > 0 ? "incomplete" : estimatedHalfHours > 0 ? "fallback" : "published",
    estimatedHalfHours,
    unpricedHalfHours,
  };
}

function slotStart(now: number): number {
  return Math.floor(now / SLOT_MS) * SLOT_MS;
}
