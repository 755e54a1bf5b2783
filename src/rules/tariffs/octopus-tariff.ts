import { HOUR_MS, parseClock, SLOT_MS, wallClock } from "../../time/index.js";
import type { OctopusTariffConfig } from "../file/tariff-schema.js";
import { AgileTariff } from "./agile.js";
import { type OctopusRates, octopusRates, paidBy, slotPrices } from "./octopus.js";
import { type OctopusCache, octopusCache } from "./octopus-cache.js";
import type { Tariff } from "./tariff.js";
import { inHours } from "./zones.js";

/** How far ahead, and back, a rate without an end (a price in force until changed) is laid out. */
const OPEN_RATE_AHEAD_MS = 48 * HOUR_MS;
const OPEN_RATE_BACK_MS = 24 * HOUR_MS;
const DAY_MS = 24 * HOUR_MS;
/** The API's largest page: a day back and all that is published ahead fit in one request. */
const PAGE_SIZE = 1500;

interface Charge {
  readonly from: number;
  readonly to: number;
  readonly price: number;
}

/** E-1R-<product>-<region>, or E-2R-... for a two-rate (day and night) meter. */
export function octopusTariffCode(product: string, region: string, twoRate = false): string {
  return `E-${twoRate ? "2R" : "1R"}-${product}-${region}`;
}

/**
 * A tariff of the Octopus public products API, by product and region. The unit rates come in
 * whatever windows the product has (Agile half-hours, Go/Cosy/Flux periods, Tracker days) and
 * land on the half-hour grid; the refreshing, the fallback and the status are the agile tariff's.
 */
export class OctopusTariff extends AgileTariff implements Tariff {
  override readonly type = "octopus" as const;
  private charges: Charge[] = [];
  /** One list of unit rates, or the day and the night lists of a two-rate meter. */
  private readonly unitRatesUrls: readonly string[];
  private readonly standingChargesUrl: string;
  private readonly night: { readonly from: number; readonly to: number } | undefined;

  constructor(
    private readonly octopus: OctopusTariffConfig,
    timeZone: string,
    fallback: Tariff | undefined,
    private readonly cache: OctopusCache = octopusCache,
  ) {
    super(octopus, timeZone, fallback);
    const hours = octopus.night_hours;
    this.night = hours ? { from: parseClock(hours.slice(0, 5)), to: parseClock(hours.slice(6)) } : undefined;
    const code = octopusTariffCode(octopus.product, octopus.region, hours !== undefined);
    const base = `${octopus.base_url.replace(/\/+$/, "")}/v1/products/${octopus.product}/electricity-tariffs/${code}`;
    this.unitRatesUrls = hours
      ? [`${base}/day-unit-rates/`, `${base}/night-unit-rates/`]
      : [`${base}/standard-unit-rates/`];
    this.standingChargesUrl = `${base}/standing-charges/`;
  }

  /**
   * Reads the unit rates and the standing charges, each on its own: a failure of one keeps what
   * was known of it and does not stop the other. False when either failed.
   */
  override async load(now: number, signal?: AbortSignal): Promise<boolean> {
    return this.loadLists(now, Math.floor((now - DAY_MS) / DAY_MS) * DAY_MS, undefined, signal);
  }

  /**
   * Reads the lists from `since` on, for costs of past days (`rules savings`): the API keeps
   * every past price. Up to the pages the client follows (15,000 half-hours, about 10 months).
   */
  async loadSince(since: number, now: number, signal?: AbortSignal): Promise<boolean> {
    const from = Math.min(since, Math.floor((now - DAY_MS) / DAY_MS) * DAY_MS);
    return this.loadLists(now, from, from, signal);
  }

  /** `openFrom`: how far back a price without an end is laid, when further than a day. */
  private async loadLists(
    now: number,
    from: number,
    openFrom: number | undefined,
    signal?: AbortSignal,
  ): Promise<boolean> {
    this.lastAttempt = now;
    const payment = this.octopus.payment.toUpperCase();
    const failures: string[] = [];
    const lists: Map<number, number>[] = [];
    const since = sinceQuery(from);
    for (const list of this.unitRatesUrls) {
      const url = `${list}${since}`;
      try {
        lists.push(await this.unitPrices(url, now, openFrom, payment, signal));
      } catch (error) {
        failures.push(`${url}: ${explain(error as Error, this.octopus)}`);
      }
    }
    if (lists.length === this.unitRatesUrls.length) {
      for (const [at, price] of this.night ? this.dayAndNight(lists) : (lists[0] ?? [])) this.prices.set(at, price);
    }
    const charges = `${this.standingChargesUrl}${since}`;
    try {
      this.charges = chargesOf(await this.read(charges, now, signal), this.octopus.scale, payment);
    } catch (error) {
      failures.push(`${charges}: ${explain(error as Error, this.octopus)}`);
    }
    this.lastError = failures.length > 0 ? failures.join("; ") : undefined;
    return failures.length === 0;
  }

  standingChargePerDay(at: number): number | undefined {
    return this.charges.find((charge) => at >= charge.from && at < charge.to)?.price;
  }

  /** Slot -> price of one list of unit rates, for the chosen payment method. */
  private async unitPrices(
    url: string,
    now: number,
    openFrom: number | undefined,
    payment: string,
    signal?: AbortSignal,
  ): Promise<Map<number, number>> {
    const back = Math.min(openFrom ?? now, now - OPEN_RATE_BACK_MS);
    const open = { from: Math.floor(back / SLOT_MS) * SLOT_MS, until: now + OPEN_RATE_AHEAD_MS };
    const prices = new Map<number, number>();
    for (const body of await this.read(url, now, signal)) {
      for (const [at, price] of slotPrices(body, this.octopus.scale, { payment, open })) prices.set(at, price);
    }
    return prices;
  }

  /** A two-rate meter's price in each slot: the night list's in the night hours, else the day list's. */
  private dayAndNight([day, night]: Map<number, number>[]): Map<number, number> {
    const prices = new Map<number, number>();
    for (const at of new Set([...(day?.keys() ?? []), ...(night?.keys() ?? [])])) {
      const hours = this.night as { from: number; to: number };
      const price = inHours(wallClock(at, this.timeZone).minutes, hours.from, hours.to) ? night?.get(at) : day?.get(at);
      if (price !== undefined) prices.set(at, price);
    }
    return prices;
  }

  private async read(url: string, now: number, signal: AbortSignal | undefined): Promise<OctopusRates[]> {
    const bodies = await this.cache.pages(url, now, this.octopus.refresh, signal);
    return bodies.map((body) => {
      const parsed = octopusRates.safeParse(body);
      if (!parsed.success) throw new Error(`not in the Octopus format: ${parsed.error.issues[0]?.message ?? ""}`);
      return parsed.data;
    });
  }
}

/**
 * From `from` on: by default the start of the UTC day before now, what a cost of today needs and
 * all that is published ahead, in one page; the same all day, so the cache can answer for it.
 */
function sinceQuery(from: number): string {
  return `?period_from=${new Date(from).toISOString().replace(".000Z", "Z")}&page_size=${PAGE_SIZE}`;
}

/** Standing charges in force, newest first as published, scaled; an open end lasts for ever. */
function chargesOf(bodies: readonly OctopusRates[], scale: number, payment: string): Charge[] {
  const charges: Charge[] = [];
  for (const body of bodies) {
    for (const result of body.results) {
      if (!paidBy(result.payment_method, payment)) continue;
      charges.push({
        from: Date.parse(result.valid_from),
        to: result.valid_to ? Date.parse(result.valid_to) : Number.POSITIVE_INFINITY,
        price: Math.round(result.value_inc_vat * scale * 1e6) / 1e6,
      });
    }
  }
  return charges;
}

/** A 404 means Octopus knows no such product in that region: say which to check. */
function explain(error: Error, config: OctopusTariffConfig): string {
  if (error.message !== "HTTP 404") return error.message;
  const code = octopusTariffCode(config.product, config.region, config.night_hours !== undefined);
  return `HTTP 404: Octopus has no tariff ${code}; check product (${config.product}) and region (${config.region}) against the tariff code on your bill or in the Octopus app`;
}
