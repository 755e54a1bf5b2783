import type { Battery } from "../../optimiser/index.js";
import type { History } from "../../store/index.js";
import { addDays, dayOf, dayStartMs, SLOT_MS } from "../../time/index.js";
import { meteredGroup, readMeteredInverters } from "./metered-slots.js";
import { computeSavings, type Savings, type SavingsTariffs, withoutStandingCharge } from "./savings.js";

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

/** The house's savings, and a way to the savings of some of its inverters over the same months. */
export interface MonthsSavings {
  readonly house: Savings;
  /**
   * The savings of some inverters alone (one, or a plant's), from their own counters: their metered
   * cost against the same inverters with no battery. No standing charge (the house's connection's,
   * owed either way) and no eco-only figure (the rules' one battery is the house's).
   */
  group(members: readonly string[]): Savings;
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
): (from: number, to: number, now: number) => MonthsSavings {
  const { timeZone } = options;
  const tariffs = options.tariffs;
  const energyOnly = withoutStandingCharge(tariffs);
  return (from, to, now) => {
    const first = monthStartOf(dayOf(from, timeZone));
    const afterLast = nextMonthStart(dayOf(to - 1, timeZone));
    const end = Math.min(dayStartMs(afterLast, timeZone), Math.floor(now / SLOT_MS) * SLOT_MS);
    const metered = readMeteredInverters(history, dayStartMs(first, timeZone), end);
    const input = { from: first, to: addDays(afterLast, -1), timeZone, battery: options.battery };
    return {
      house: computeSavings(meteredGroup(metered), tariffs, input),
      group: (members) => computeSavings(meteredGroup(metered, members), energyOnly, input),
    };
  };
}
