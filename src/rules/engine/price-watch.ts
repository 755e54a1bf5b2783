import type { Logger } from "../../log/log.js";
import type { Prices } from "../../rules-runtime/index.js";
import type { Interval } from "../planners/planner.js";
import type { Tariff } from "../tariffs/index.js";

/** The tariffs the rules read, refreshed when they say so, with a fingerprint of their prices. */
export class PriceWatch {
  private due = Number.POSITIVE_INFINITY;
  private mark = "";

  constructor(
    private readonly tariffs: { readonly import?: Tariff; readonly export?: Tariff },
    private readonly currency: string,
    private readonly horizonMs: number,
    private readonly logger: Logger,
  ) {}

  /** When refresh() should run next; Infinity when no tariff's prices change. */
  get nextRefresh(): number {
    return this.due;
  }

  /** Refreshes the tariffs; true when the prices over the horizon changed, so plans must be made again. */
  async refresh(now: number, signal: AbortSignal): Promise<boolean> {
    let next = Number.POSITIVE_INFINITY;
    for (const [side, tariff] of Object.entries(this.tariffs)) {
      await tariff.refresh(now, signal);
      const error = tariff.status(now).error;
      if (error !== undefined) this.logger.warn({ tariff: side, error }, "prices could not be refreshed");
      next = Math.min(next, tariff.nextRefresh(now));
    }
    this.due = next;
    const mark = this.markOf(now);
    if (mark === this.mark) return false;
    this.mark = mark;
    return true;
  }

  prices(at: number): Prices {
    const imported = this.tariffs.import?.priceAt(at);
    const exported = this.tariffs.export?.priceAt(at);
    return {
      ...(imported === undefined ? {} : { import: imported }),
      ...(exported === undefined ? {} : { export: exported }),
      currency: this.currency,
    };
  }

  /** The import price over a window, weighted by time; undefined when no slot of it has a price. */
  averageImport(window: Interval): number | undefined {
    const rates = this.tariffs.import?.rates(window.start, window.end) ?? [];
    let weight = 0;
    let sum = 0;
    for (const rate of rates) {
      const overlap = Math.min(rate.end, window.end) - Math.max(rate.start, window.start);
      if (overlap <= 0) continue;
      weight += overlap;
      sum += rate.price * overlap;
    }
    return weight > 0 ? Math.round((sum / weight) * 10_000) / 10_000 : undefined;
  }

  /** A fingerprint of the prices over the horizon: a change means new plans. */
  private markOf(now: number): string {
    const parts: string[] = [];
    for (const tariff of [this.tariffs.import, this.tariffs.export]) {
      for (const rate of tariff?.rates(now, now + this.horizonMs) ?? []) parts.push(`${rate.start}:${rate.price}`);
    }
    return parts.join(",");
  }
}
