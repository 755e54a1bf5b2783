import type { Battery } from "../../optimiser/index.js";
import type { History } from "../../store/index.js";
import { addDays, dayOf, dayStartMs, SLOT_MS } from "../../time/index.js";
import { readMeteredHouse } from "./metered-slots.js";
import { computeSavings, type Savings, type SavingsTariffs } from "./savings.js";

export interface SavingsMonthsOptions {
  readonly tariffs: SavingsTariffs;
  readonly timeZone: string;
  readonly battery: Battery;
}

/** The local month's first day of a YYYY-MM-DD day. */
const monthStartOf = (day: string): string => `${day.slice(0, 8)}01`;

/** The first day of the month after a YYYY-MM-DD day's. */
function nextMonthStart(day: string): string {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
}

/**
 * The savings of every local month that [from, to) touches, each month whole up to the last
 * complete half-hour before `now`: so a month's total is one number whatever range asked for it,
 * and the month under way is the `saved_month` the MQTT sensors publish (the half-hour under way
 * is not metered yet there either).
 */
export function savingsOverMonths(
  history: Pick<History, "query">,
  options: SavingsMonthsOptions,
): (from: number, to: number, now: number) => Savings {
  const { timeZone } = options;
  return (from, to, now) => {
    const first = monthStartOf(dayOf(from, timeZone));
    const afterLast = nextMonthStart(dayOf(to - 1, timeZone));
    const end = Math.min(dayStartMs(afterLast, timeZone), Math.floor(now / SLOT_MS) * SLOT_MS);
    const house = readMeteredHouse(history, dayStartMs(first, timeZone), end);
    return computeSavings(house, options.tariffs, {
      from: first,
      to: addDays(afterLast, -1),
      timeZone,
      battery: options.battery,
    });
  };
}
