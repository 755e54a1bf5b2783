import { readMeteredHouse } from "../rules/savings/metered-slots.js";
import type { Rate } from "../rules/tariffs/index.js";
import type { History } from "../store/index.js";
import { SLOT_MS } from "../time/index.js";

/** The house's half-hours between two instants as the store metered them, on an unbroken grid. */
export interface MeteredHalfHours {
  readonly starts: number[];
  readonly load: number[];
  readonly solar: number[];
  readonly importKwh: number[];
  readonly exportKwh: number[];
  /** Half-hours the store has no reading for: replayed as no load and no solar, nothing metered. */
  readonly missing: number;
  /** The first battery SoC reading in the range, %. */
  readonly firstSocPercent: number | undefined;
}

/** Every half-hour of [from, to) with what the store metered in it (summed over the inverters). */
export function meteredHalfHours(history: Pick<History, "query">, from: number, to: number): MeteredHalfHours {
  const house = readMeteredHouse(history, from, to);
  const bySlot = new Map(house.slots.map((slot) => [slot.start, slot]));
  const out: MeteredHalfHours = {
    starts: [],
    load: [],
    solar: [],
    importKwh: [],
    exportKwh: [],
    missing: 0,
    firstSocPercent: house.soc[0]?.percent,
  };
  let missing = 0;
  for (let start = from; start < to; start += SLOT_MS) {
    const slot = bySlot.get(start);
    if (!slot) missing++;
    out.starts.push(start);
    out.load.push(slot?.loadKwh ?? 0);
    out.solar.push(slot?.solarKwh ?? 0);
    out.importKwh.push(slot?.importKwh ?? 0);
    out.exportKwh.push(slot?.exportKwh ?? 0);
  }
  return { ...out, missing };
}

/** A price per half-hour from a tariff's rates; a half-hour without one takes the nearest earlier (else later) price. */
export function pricesOn(
  starts: readonly number[],
  rates: readonly Rate[],
): { readonly prices: number[]; readonly filled: number } {
  const bySlot = new Map(rates.map((rate) => [rate.start, rate.price]));
  const prices: (number | undefined)[] = starts.map((start) => bySlot.get(start));
  const filled = prices.filter((price) => price === undefined).length;
  let last = prices.find((price) => price !== undefined) ?? 0;
  return {
    prices: prices.map((price) => {
      if (price !== undefined) last = price;
      return last;
    }),
    filled,
  };
}
