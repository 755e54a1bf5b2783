import { halfHourStarts, SLOT_MS } from "../../time/local-time.js";

/** One half-hour (or shorter) slot and its price per kWh. */
export interface Rate {
  readonly start: number;
  readonly end: number;
  readonly price: number;
  /** True when the price is the fallback's, not a published one. */
  readonly estimated: boolean;
}

/** A tariff, evcc style: the price at an instant, and the half-hourly rates over a period. */
export interface Tariff {
  readonly type: "fixed" | "zones" | "agile";
  /** Price per kWh at an instant; undefined when nothing is known for it. */
  priceAt(at: number): number | undefined;
  /** The half-hour slots that overlap [from, to) and have a price, in time order. */
  rates(from: number, to: number): Rate[];
}

/** Half-hourly rates from a price function sampled at each slot's start. */
export function sampledRates(
  from: number,
  to: number,
  priceOf: (at: number) => { price: number; estimated: boolean } | undefined,
): Rate[] {
  const rates: Rate[] = [];
  for (const start of halfHourStarts(from, to)) {
    const found = priceOf(start);
    if (found) rates.push({ start, end: start + SLOT_MS, price: found.price, estimated: found.estimated });
  }
  return rates;
}
