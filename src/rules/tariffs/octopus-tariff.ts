import { HOUR_MS } from "../../time/index.js";
import type { OctopusTariffConfig } from "../tariff-schema.js";
import { AgileTariff } from "./agile.js";
import { type OctopusRates, octopusRates, paidBy, slotPrices } from "./octopus.js";
import { type OctopusCache, octopusCache } from "./octopus-cache.js";
import type { Tariff } from "./tariff.js";

/** How far ahead a rate without an end (a Tracker's or Go's current price) is taken to hold. */
const OPEN_RATE_DAYS = 2;

interface Charge {
  readonly from: number;
  readonly to: number;
  readonly price: number;
}

/** E-1R-<product>-<region>: the single-register electricity tariff code. */
export function octopusTariffCode(product: string, region: string): string {
  return `E-1R-${product}-${region}`;
}

/**
 * A tariff of the Octopus public products API, by product and region. The unit rates come in
 * whatever windows the product has (Agile half-hours, Go/Cosy/Flux periods, Tracker days) and
 * land on the half-hour grid; the refreshing, the fallback and the status are the agile tariff's.
 */
export class OctopusTariff extends AgileTariff implements Tariff {
  override readonly type = "octopus" as const;
  private charges: Charge[] = [];
  private readonly unitRatesUrl: string;
  private readonly standingChargesUrl: string;

  constructor(
    private readonly octopus: OctopusTariffConfig,
    timeZone: string,
    fallback: Tariff | undefined,
    private readonly cache: OctopusCache = octopusCache,
  ) {
    super(octopus, timeZone, fallback);
    const code = octopusTariffCode(octopus.product, octopus.region);
    const base = `${octopus.base_url.replace(/\/+$/, "")}/v1/products/${octopus.product}/electricity-tariffs/${code}`;
    this.unitRatesUrl = `${base}/standard-unit-rates/`;
    this.standingChargesUrl = `${base}/standing-charges/`;
  }

  /**
   * Reads the unit rates and the standing charges, each on its own: a failure of one keeps what
   * was known of it and does not stop the other. False when either failed.
   */
  override async load(now: number, signal?: AbortSignal): Promise<boolean> {
    this.lastAttempt = now;
    const payment = this.octopus.payment.toUpperCase();
    const openUntil = now + OPEN_RATE_DAYS * 24 * HOUR_MS;
    const failures: string[] = [];
    try {
      for (const body of await this.read(this.unitRatesUrl, now, signal)) {
        for (const [at, price] of slotPrices(body, this.octopus.scale, { payment, openUntil }))
          this.prices.set(at, price);
      }
    } catch (error) {
      failures.push(`${this.unitRatesUrl}: ${explain(error as Error, this.octopus)}`);
    }
    try {
      this.charges = chargesOf(await this.read(this.standingChargesUrl, now, signal), this.octopus.scale, payment);
    } catch (error) {
      failures.push(`${this.standingChargesUrl}: ${explain(error as Error, this.octopus)}`);
    }
    this.lastError = failures.length > 0 ? failures.join("; ") : undefined;
    return failures.length === 0;
  }

  standingChargePerDay(at: number): number | undefined {
    return this.charges.find((charge) => at >= charge.from && at < charge.to)?.price;
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
  const code = octopusTariffCode(config.product, config.region);
  return `HTTP 404: Octopus has no tariff ${code}; check product (${config.product}) and region (${config.region}) against the tariff code on your bill or in the Octopus app`;
}
