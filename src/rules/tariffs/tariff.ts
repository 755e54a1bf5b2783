import { halfHourStarts, SLOT_MS } from "../../time/index.js";

/** One half-hour (or shorter) slot and its price per kWh. */
export interface Rate {
  readonly start: number;
  readonly end: number;
  readonly price: number;
  /** True when the price is the fallback's, not a published one. */
  readonly estimated: boolean;
}

/** How complete a tariff's prices are. */
export interface TariffStatus {
  /** What the planner does about missing prices, in words; undefined when nothing is missing. */
  readonly message: string | undefined;
  /** Why the last refresh failed, when it did. */
  readonly error?: string;
}

/**
 * A tariff, evcc style: the price at an instant, the half-hourly rates over a period, and its own
 * refreshing, so that callers never ask which kind of tariff they hold.
 */
export interface Tariff {
  readonly type: "fixed" | "zones" | "agile" | "octopus";
  /** Price per kWh at an instant; undefined when nothing is known for it. */
  priceAt(at: number): number | undefined;
  /** The half-hour slots that overlap [from, to) and have a price, in time order. */
  rates(from: number, to: number): Rate[];
  /**
   * Fetches prices that change over time. Never throws: a failure keeps the prices known and
   * shows in status().error. Nothing to do for prices written in rules.yaml.
   */
  refresh(now: number, signal?: AbortSignal): Promise<void>;
  /** When refresh() should run next (epoch ms); Infinity when the prices never change. */
  nextRefresh(now: number): number;
  status(now: number): TariffStatus;
  /**
   * The standing charge per day (currency, not per kWh) in force at an instant, for tariffs
   * that publish one; undefined when none is known.
   */
  standingChargePerDay?(at: number): number | undefined;
}

/** The refresh part of a tariff whose prices are all in rules.yaml. */
export const STEADY_PRICES = {
  refresh: async (_now: number, _signal?: AbortSignal): Promise<void> => {},
  nextRefresh: (_now: number): number => Number.POSITIVE_INFINITY,
  status: (_now: number): TariffStatus => ({ message: undefined }),
} as const;

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
