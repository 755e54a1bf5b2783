import type { PriceSide, PublishedPrice, PublishedPrices } from "../../store/index.js";

/**
 * The published prices the rules engine keeps and reads back for its price forecast, held in
 * memory for a replay: the store's contract (published-prices.ts) without its SQL, which the
 * engine would otherwise query every half-hour of the year.
 */
export class ReplayPublishedPrices implements PublishedPrices {
  private readonly sides = { import: new Map<number, PublishedPrice>(), export: new Map<number, PublishedPrice>() };
  private readonly sorted: { import?: number[]; export?: number[] } = {};

  save(prices: readonly PublishedPrice[]): number {
    let written = 0;
    for (const price of prices) {
      const held = this.sides[price.side];
      const before = held.get(price.start);
      if (before && before.end === price.end && before.price === price.price && before.reported === price.reported)
        continue;
      if (!before) this.sorted[price.side] = undefined;
      held.set(price.start, price);
      written++;
    }
    return written;
  }

  between(side: PriceSide, from: number, to: number): PublishedPrice[] {
    const held = this.sides[side];
    const starts = this.startsOf(side);
    const out: PublishedPrice[] = [];
    for (let i = firstAtOrAfter(starts, from); i < starts.length && (starts[i] as number) < to; i++)
      out.push(held.get(starts[i] as number) as PublishedPrice);
    return out;
  }

  applyRetention(): number {
    return 0;
  }

  private startsOf(side: PriceSide): number[] {
    const known = this.sorted[side];
    if (known) return known;
    const starts = [...this.sides[side].keys()].sort((a, b) => a - b);
    this.sorted[side] = starts;
    return starts;
  }
}

function firstAtOrAfter(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
