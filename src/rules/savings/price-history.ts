import type { PriceSide, PublishedPrices } from "../../store/index.js";
import { HOUR_MS } from "../../time/index.js";
import type { PriceHistory } from "../planners/optimise-windows.js";
import type { Rate, Tariff } from "../tariffs/index.js";
import { mergeByStart } from "../tariffs/merge-by-start.js";
import type { SavingsTariffs } from "./savings.js";

/** How far back the optimiser's price forecast learns from (PRICE_FORECAST's days). */
export const PRICE_HISTORY_DAYS = 14;

/** The store's published prices, as read here. */
export type StoredPrices = Pick<PublishedPrices, "between">;

interface Tariffs {
  readonly import?: Pick<Tariff, "rates">;
  readonly export?: Pick<Tariff, "rates">;
}

/**
 * A tariff's rates over [from, to) with the store's published prices filling the slots the tariff
 * has no published price for (none, or only its fallback's estimate): where both have a published
 * price the tariff's wins, as it is the newer word.
 */
export function mergedRates(
  tariff: Pick<Tariff, "rates"> | undefined,
  stored: StoredPrices | undefined,
  side: PriceSide,
  from: number,
  to: number,
): Rate[] {
  const held = tariff?.rates(from, to) ?? [];
  if (!stored) return held;
  return mergeByStart(held, stored.between(side, from, to), (rate, row): Rate | undefined =>
    row === undefined || rate?.estimated === false
      ? rate
      : { start: row.start, end: row.end, price: row.price, estimated: row.reported === "estimated" },
  );
}

/**
 * The prices published over the PRICE_HISTORY_DAYS before now, for the optimiser's forecast beyond
 * the published ones: what the tariffs hold and, before it, what the store kept from before a
 * restart. The daemon and `rules plan` both plan from this.
 */
export function priceHistory(
  tariffs: Tariffs,
  stored: StoredPrices | undefined,
  timeZone: string,
  now: number,
): PriceHistory {
  const from = now - PRICE_HISTORY_DAYS * 24 * HOUR_MS;
  return {
    timeZone,
    import: mergedRates(tariffs.import, stored, "import", from, now),
    export: mergedRates(tariffs.export, stored, "export", from, now),
  };
}

/**
 * priceHistory with the store's prices, or, when the store cannot be read, with the tariffs' own:
 * `unread` is told why, so that the caller says it where its user looks (the log, the page).
 */
export function priceHistoryOrTariffs(
  tariffs: Tariffs,
  stored: StoredPrices | undefined,
  timeZone: string,
  now: number,
  unread: (message: string) => void,
): PriceHistory {
  try {
    return priceHistory(tariffs, stored, timeZone, now);
  } catch (error) {
    unread((error as Error).message);
    return priceHistory(tariffs, undefined, timeZone, now);
  }
}

/** The tariffs as the savings price past days: with the store's published prices the tariffs no longer hold. */
export function withStoredPrices(
  tariffs: SavingsTariffs,
  stored: StoredPrices,
): { import?: SavingsTariffs["import"]; export?: SavingsTariffs["export"] } {
  const { import: imported, export: exported } = tariffs;
  return {
    ...(imported
      ? {
          import: {
            rates: (from: number, to: number) => mergedRates(imported, stored, "import", from, to),
            ...(imported.standingChargePerDay
              ? { standingChargePerDay: (at: number) => imported.standingChargePerDay?.(at) }
              : {}),
          },
        }
      : {}),
    ...(exported
      ? { export: { rates: (from: number, to: number) => mergedRates(exported, stored, "export", from, to) } }
      : {}),
  };
}
