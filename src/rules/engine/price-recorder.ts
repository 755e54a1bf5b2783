import type { Logger } from "../../log/log.js";
import type { PriceSide, PublishedPrice, PublishedPrices } from "../../store/index.js";
import { HOUR_MS, SLOT_MS } from "../../time/index.js";
import type { Tariff } from "../tariffs/index.js";

/** Tariffs whose prices are published over time; fixed and zones prices are rules.yaml's own. */
const PUBLISHED_TYPES: ReadonlySet<Tariff["type"]> = new Set(["agile", "octopus"]);

/** How far back a refresh may bring prices not stored yet (a file of past days): the History page's savings range. */
const LOOK_BACK_MS = 62 * 24 * HOUR_MS;

/**
 * Keeps the prices the tariffs published in the store, after each refresh: only the slots whose
 * price is new or changed since the store last had it, in one transaction. Estimates (a tariff's
 * fallback) are not kept. A store that fails is logged and tried again at the next refresh.
 */
export class PriceRecorder {
  /** What the store holds, per side: slot start -> "end price". */
  private known: Map<PriceSide, Map<number, string>> | undefined;

  constructor(
    private readonly tariffs: { readonly import?: Tariff; readonly export?: Tariff },
    private readonly store: PublishedPrices,
    private readonly horizonMs: number,
    private readonly logger: Logger,
  ) {}

  /** Stores what the tariffs published that the store does not hold yet; the number of slots written. */
  record(now: number): number {
    const from = Math.floor((now - LOOK_BACK_MS) / SLOT_MS) * SLOT_MS;
    const to = now + this.horizonMs;
    try {
      const known = this.knownFrom(from, to);
      const changed: PublishedPrice[] = [];
      for (const side of ["import", "export"] as const) {
        const tariff = this.tariffs[side];
        if (!tariff || !PUBLISHED_TYPES.has(tariff.type)) continue;
        const stored = known.get(side) as Map<number, string>;
        for (const rate of tariff.rates(from, to)) {
          if (rate.estimated || stored.get(rate.start) === slotValue(rate)) continue;
          changed.push({ side, start: rate.start, end: rate.end, price: rate.price });
        }
      }
      const written = this.store.save(changed);
      for (const price of changed) known.get(price.side)?.set(price.start, slotValue(price));
      for (const slots of known.values()) for (const start of slots.keys()) if (start < from) slots.delete(start);
      if (written > 0) this.logger.debug({ slots: written }, "published prices stored");
      return written;
    } catch (error) {
      this.logger.warn(
        { err: (error as Error).message },
        "the published prices could not be stored: tried again at the next refresh",
      );
      return 0;
    }
  }

  /** What the store holds from `from` on, read once; kept up to date as prices are written. */
  private knownFrom(from: number, to: number): Map<PriceSide, Map<number, string>> {
    if (this.known) return this.known;
    const known = new Map<PriceSide, Map<number, string>>();
    for (const side of ["import", "export"] as const)
      known.set(side, new Map(this.store.between(side, from, to).map((row) => [row.start, slotValue(row)])));
    this.known = known;
    return known;
  }
}

function slotValue(price: { readonly end: number; readonly price: number }): string {
  return `${price.end} ${price.price}`;
}
