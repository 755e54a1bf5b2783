import { readFile } from "node:fs/promises";
import { HOUR_MS, localDateTimeText, localDay, nextLocalTime, SLOT_MS } from "../../time/index.js";
import type { AgileTariffConfig } from "../file/tariff-schema.js";
import { fetchPages, octopusRates, slotPrices } from "./octopus.js";
import { type Rate, sampledRates, type Tariff, type TariffStatus } from "./tariff.js";

/** What the refreshing needs of an agile or octopus tariff. */
export type RefreshConfig = Pick<AgileTariffConfig, "refresh" | "published_at" | "scale"> &
  Partial<Pick<AgileTariffConfig, "file" | "url" | "fallback">> & { readonly type?: "agile" | "octopus" };

export interface AgileStatus extends TariffStatus {
  /** End of the last published slot, or undefined when none is known. */
  readonly until: number | undefined;
  /** True when the next day's prices should be out by now but are not. */
  readonly tomorrowMissing: boolean;
}

/**
 * Half-hourly prices in the Octopus format, from a file or a URL. Loading keeps the prices
 * already known and adds the new ones, so a failed refresh loses nothing. Slots without a
 * published price take the fallback tariff when one is configured, marked as estimated.
 */
export class AgileTariff implements Tariff {
  readonly type: "agile" | "octopus" = "agile";
  protected prices = new Map<number, number>();
  protected lastAttempt: number | undefined;
  protected lastError: string | undefined;

  constructor(
    private readonly config: RefreshConfig,
    protected readonly timeZone: string,
    private readonly fallback: Tariff | undefined,
  ) {}

  async refresh(now: number, signal?: AbortSignal): Promise<void> {
    await this.load(now, signal);
  }

  /** Reads the file or URL; returns false (and keeps the old prices) when that fails. */
  async load(now: number, signal?: AbortSignal): Promise<boolean> {
    this.lastAttempt = now;
    try {
      const bodies = this.config.url
        ? await fetchPages(this.config.url, signal)
        : [await readJson(this.config.file ?? "", signal)];
      for (const body of bodies) {
        const parsed = octopusRates.safeParse(body);
        if (!parsed.success) throw new Error(`not in the Octopus format: ${parsed.error.issues[0]?.message ?? ""}`);
        for (const [at, price] of slotPrices(parsed.data, this.config.scale)) this.prices.set(at, price);
      }
      this.lastError = undefined;
      return true;
    } catch (error) {
      this.lastError = `${this.config.url ?? this.config.file}: ${(error as Error).message}`;
      return false;
    }
  }

  /** Why the last load failed, if it did. */
  get error(): string | undefined {
    return this.lastError;
  }

  /** Replaces the known prices (slot start -> price per kWh), for tests and callers holding prices already. */
  setPrices(prices: ReadonlyMap<number, number>): void {
    this.prices = new Map(prices);
  }

  priceAt(at: number): number | undefined {
    return this.prices.get(Math.floor(at / SLOT_MS) * SLOT_MS) ?? this.fallback?.priceAt(at);
  }

  rates(from: number, to: number): Rate[] {
    return sampledRates(from, to, (at) => {
      const published = this.prices.get(at);
      if (published !== undefined) return { price: published, estimated: false };
      const estimate = this.fallback?.priceAt(at);
      return estimate === undefined ? undefined : { price: estimate, estimated: true };
    });
  }

  /** End of the last consecutive published slot from `now`. */
  coveredUntil(now: number): number | undefined {
    let at = Math.floor(now / SLOT_MS) * SLOT_MS;
    if (!this.prices.has(at)) return undefined;
    while (this.prices.has(at)) at += SLOT_MS;
    return at;
  }

  /**
   * When to load again: at the publishing time while today's prices are all there, then every
   * `refresh` until tomorrow's arrive (and after a failure), then at the next publishing time.
   */
  nextRefresh(now: number): number {
    if (this.lastAttempt === undefined) return now;
    const retry = Math.max(now, this.lastAttempt + this.config.refresh);
    if (this.lastError !== undefined) return retry;
    const { published, wanted, publishAt } = this.expected(now);
    if ((this.coveredUntil(now) ?? now) < wanted) return retry;
    return published ? nextLocalTime(now, this.config.published_at, this.timeZone) : publishAt;
  }

  status(now: number): AgileStatus {
    const until = this.coveredUntil(now);
    const { published, wanted } = this.expected(now);
    const error = this.lastError === undefined ? {} : { error: this.lastError };
    if (until !== undefined && until >= wanted) return { until, tomorrowMissing: false, message: undefined, ...error };
    const tomorrowMissing = published;
    const known =
      until === undefined
        ? "no published price for now"
        : `published prices end ${localDateTimeText(until, this.timeZone)}`;
    const then = this.fallback
      ? "slots without a price use the fallback (marked estimated)"
      : "slots without a price have none: a plan there falls back to a plain window before its deadline";
    const failed = this.lastError ? `; the last refresh failed: ${this.lastError}` : "";
    const why = tomorrowMissing ? "tomorrow's prices are not published yet" : "today's prices are incomplete";
    return { until, tomorrowMissing, message: `${why} (${known}); ${then}${failed}`, ...error };
  }

  /**
   * Until when prices should be known by now. Octopus days run 23:00 to 23:00 UK time, so a
   * complete day ends an hour before local midnight.
   */
  private expected(now: number): { published: boolean; wanted: number; publishAt: number } {
    const today = localDay(now, this.timeZone);
    const publishAt = nextLocalTime(today.start - 1, this.config.published_at, this.timeZone);
    const published = now >= publishAt;
    const dayEnd = published ? localDay(today.end, this.timeZone).end : today.end;
    return { published, wanted: dayEnd - HOUR_MS, publishAt };
  }
}

async function readJson(file: string, signal: AbortSignal | undefined): Promise<unknown> {
  return JSON.parse(await readFile(file, { encoding: "utf8", ...(signal ? { signal } : {}) }));
}
