import { fetchPages, octopusRates, slotPrices } from "../rules/tariffs/octopus.js";
import { octopusTariffCode } from "../rules/tariffs/octopus-tariff.js";
import type { ArchivedPrices } from "../store/index.js";
import { SLOT_MS } from "../time/index.js";
import type { PricedTariff } from "./backtest.js";
import { pricesOn } from "./store-input.js";
import type { TariffSpec } from "./tariff-spec.js";

export const OCTOPUS_API = "https://api.octopus.energy";
/** Half-hours asked in one request: 30 days fit the API's largest page (1,500). */
const CHUNK_SLOTS = 30 * 48;
const PAGE_SIZE = 1500;

export interface OctopusPriceOptions {
  readonly region: string;
  readonly timeZone: string;
  readonly now: number;
  /** The backtest's half-hours. */
  readonly starts: readonly number[];
  readonly archive: Pick<ArchivedPrices, "between" | "save">;
  readonly baseUrl?: string;
  /** Export prices when the spec names no export product: the configured tariff's (none: 0). */
  readonly exportFallback?: readonly number[] | undefined;
  /** Told of each request, for the tests and the progress line. */
  readonly onFetch?: (url: string) => void;
}

/**
 * An Octopus product's past prices on the backtest's half-hours: those the store keeps, and for
 * each 30 days it lacks some of, the API's unit rates (period_from to period_to), kept in the
 * store so that the next run asks nothing. A string says why they could not be had.
 */
export async function octopusTariffPrices(
  spec: TariffSpec,
  options: OctopusPriceOptions,
): Promise<PricedTariff | string> {
  const base = (options.baseUrl ?? OCTOPUS_API).replace(/\/+$/, "");
  const side = async (product: string) => {
    const code = octopusTariffCode(product, options.region);
    const url = `${base}/v1/products/${product}/electricity-tariffs/${code}/standard-unit-rates/`;
    await fillArchive(code, url, options);
    const from = options.starts[0] ?? 0;
    const to = (options.starts[options.starts.length - 1] ?? from) + SLOT_MS;
    const kept = options.archive.between(code, from, to);
    return { code, kept, priced: pricesOn(options.starts, kept.map(asRate)) };
  };
  try {
    const imports = await side(spec.importProduct);
    if (imports.kept.length === 0) return `Octopus has no prices for ${imports.code} over these days`;
    const exports = spec.exportProduct ? await side(spec.exportProduct) : undefined;
    return {
      name: spec.name,
      source: `Octopus ${imports.code}${exports ? ` and export ${exports.code}` : options.exportFallback ? ", the configured export tariff" : ", no export tariff"} (past prices kept in the store)`,
      importPrice: imports.priced.prices,
      exportPrice: exports?.priced.prices ?? options.exportFallback ?? options.starts.map(() => 0),
      filled: Math.max(imports.priced.filled, exports?.priced.filled ?? 0),
    };
  } catch (error) {
    return (error as Error).message;
  }
}

const asRate = (price: { start: number; price: number }) => ({
  start: price.start,
  end: price.start + SLOT_MS,
  price: price.price,
  estimated: false,
});

/** Fetches the chunks of the backtest's half-hours the store lacks a price for. */
async function fillArchive(code: string, url: string, options: OctopusPriceOptions): Promise<void> {
  for (let first = 0; first < options.starts.length; first += CHUNK_SLOTS) {
    const from = options.starts[first] as number;
    const count = Math.min(CHUNK_SLOTS, options.starts.length - first);
    const to = from + count * SLOT_MS;
    if (options.archive.between(code, from, to).length >= count) continue;
    const query = `?period_from=${iso(from)}&period_to=${iso(to)}&page_size=${PAGE_SIZE}`;
    options.onFetch?.(`${url}${query}`);
    const bodies = await fetchPages(`${url}${query}`, undefined).catch((error: Error) => {
      throw new Error(
        error.message === "HTTP 404"
          ? `HTTP 404: Octopus has no tariff ${code}; check the product code and --region`
          : `${url}${query}: ${error.message}`,
      );
    });
    const prices = new Map<number, number>();
    for (const body of bodies) {
      const parsed = octopusRates.safeParse(body);
      if (!parsed.success)
        throw new Error(`${url}: not in the Octopus format: ${parsed.error.issues[0]?.message ?? ""}`);
      for (const [at, price] of slotPrices(parsed.data, 0.01, {
        payment: "DIRECT_DEBIT",
        open: { from, until: Math.min(to, options.now) },
      }))
        if (at >= from && at < to) prices.set(at, price);
    }
    options.archive.save(
      code,
      [...prices].map(([start, price]) => ({ start, price })),
    );
  }
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");
