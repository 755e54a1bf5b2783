import type { Database, Statement } from "better-sqlite3";
import { guard, StoreError } from "./errors.js";

export type PriceSide = "import" | "export";

/** One half-hour's price as a tariff published it. */
export interface PublishedPrice {
  readonly side: PriceSide;
  /** The slot, epoch ms. */
  readonly start: number;
  readonly end: number;
  /** Currency per kWh, as the tariff holds it. */
  readonly price: number;
  /** What the tariff reported of the price beyond the number (e.g. "estimated"); undefined: nothing. */
  readonly reported?: string;
}

/**
 * How long published prices are kept: the longest range `rules savings` prices (400 days), well
 * past the 62 days of the History page's savings and the optimiser's 14 days of price history.
 */
export const PUBLISHED_PRICES_KEEP_MS = 400 * 24 * 60 * 60_000;

/** The tariffs' published half-hour prices, kept across restarts. */
export interface PublishedPrices {
  /**
   * Keeps the prices in one transaction, each replacing what its (side, start) held; a row that
   * already holds the same is not written. The number of rows written.
   */
  save(prices: readonly PublishedPrice[]): number;
  /** The side's prices for the slots starting in [from, to), by start. */
  between(side: PriceSide, from: number, to: number): PublishedPrice[];
  /** Deletes the slots that started before now less PUBLISHED_PRICES_KEEP_MS; how many. */
  applyRetention(now: number): number;
}

interface Row {
  side: unknown;
  start: unknown;
  end: unknown;
  price: unknown;
  reported: unknown;
}

export class SqlitePublishedPrices implements PublishedPrices {
  private readonly upsert: Statement<[string, number, number, number, string | null]>;
  private readonly range: Statement<[string, number, number], Row>;
  private readonly drop: Statement<[number]>;

  constructor(
    private readonly db: Database,
    private readonly path: string,
  ) {
    this.upsert = db.prepare(
      `INSERT INTO published_price (side, start, "end", price, reported) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (side, start) DO UPDATE SET "end" = excluded."end", price = excluded.price, reported = excluded.reported
       WHERE "end" IS NOT excluded."end" OR price IS NOT excluded.price OR reported IS NOT excluded.reported`,
    );
    this.range = db.prepare(
      `SELECT side, start, "end", price, reported FROM published_price
       WHERE side = ? AND start >= ? AND start < ? ORDER BY start`,
    );
    this.drop = db.prepare("DELETE FROM published_price WHERE start < ?");
  }

  save(prices: readonly PublishedPrice[]): number {
    if (prices.length === 0) return 0;
    const write = this.db.transaction(() => {
      let written = 0;
      for (const price of prices)
        written += this.upsert.run(price.side, price.start, price.end, price.price, price.reported ?? null).changes;
      return written;
    });
    return guard(this.path, () => write.immediate());
  }

  between(side: PriceSide, from: number, to: number): PublishedPrice[] {
    return guard(this.path, () => this.range.all(side, from, to)).map((row) => this.read(row));
  }

  applyRetention(now: number): number {
    return guard(this.path, () => this.drop.run(now - PUBLISHED_PRICES_KEEP_MS).changes);
  }

  private read(row: Row): PublishedPrice {
    const { side, start, end, price, reported } = row;
    const fits =
      (side === "import" || side === "export") &&
      Number.isSafeInteger(start) &&
      Number.isSafeInteger(end) &&
      typeof price === "number" &&
      Number.isFinite(price) &&
      (reported === null || typeof reported === "string");
    if (!fits)
      throw new StoreError(
        "corrupt",
        this.path,
        `a published_price row in ${this.path} does not fit the schema: restore a backup, or move the file aside`,
      );
    return {
      side,
      start: start as number,
      end: end as number,
      price,
      ...(reported === null ? {} : { reported: reported as string }),
    };
  }
}
