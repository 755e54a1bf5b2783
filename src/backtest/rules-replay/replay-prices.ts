import type { PriceSide, PublishedPrice, PublishedPrices } from "../../store/index.js";

/**
 * The published prices the rules engine keeps and reads back for its price forecast, held in
 * memory for a replay: the store's contract (published-prices.ts) without its SQL, which the
 * engine would otherwise query every half-hour of the year.
 */
export class ReplayPublishedPrices implements PublishedPrices {
  private readonly sides = { import: new Map<number, PublishedPrice>(), export: new Map<number, PublishedPrice>() };
  /** Per side, its prices in time order: made again after a save changed any. */
  private readonly sorted: { import?: PublishedPrice[]; export?: PublishedPrice[] } = {};

  save(prices: readonly PublishedPrice[]): number {
    let written = 0;
    for (const price of prices) {
      const held = this.sides[price.side];
      const before = held.get(price.start);
      if (before && before.end === price.end && before.price === price.price && before.reported === price.reported)
        continue;
      this.sorted[price.side] = undefined;
      held.set(price.start, price);
      written++;
    }
    return written;
  }

  between(side: PriceSide, from: number, to: number): PublishedPrice[] {
    const sorted = this.sortedOf(side);
    return sorted.slice(firstAtOrAfter(sorted, from), firstAtOrAfter(sorted, to));
  }

  applyRetention(): number {
    return 0;
  }

  private sortedOf(side: PriceSide): PublishedPrice[] {
    const known = this.sorted[side];
    if (known) return known;
    const sorted = [...this.sides[side].values()].sort((a, b) => a.start - b.start);
    this.sorted[side] = sorted;
    return sorted;
  }
}

function firstAtOrAfter(sorted: readonly PublishedPrice[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as PublishedPrice).start < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
