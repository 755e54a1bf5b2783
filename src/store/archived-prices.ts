import type { Database, Statement } from "better-sqlite3";
import { guard, StoreError } from "./errors.js";

/** One half-hour's price of a tariff named by its code. */
export interface ArchivedPrice {
  /** The slot's start, epoch ms. */
  readonly start: number;
  /** GBP per kWh. */
  readonly price: number;
}

/** Past prices of tariffs by code, kept so that they are fetched once. */
export interface ArchivedPrices {
  /** Keeps the prices in one transaction, each replacing what its (tariff, start) held; rows written. */
  save(tariff: string, prices: readonly ArchivedPrice[]): number;
  /** The tariff's prices for slots starting in [from, to), by start. */
  between(tariff: string, from: number, to: number): ArchivedPrice[];
}

interface Row {
  start: unknown;
  price: unknown;
}

export class SqliteArchivedPrices implements ArchivedPrices {
  private readonly upsert: Statement<[string, number, number]>;
  private readonly range: Statement<[string, number, number], Row>;

  constructor(
    private readonly db: Database,
    private readonly path: string,
  ) {
    this.upsert = db.prepare(
      `INSERT INTO archived_tariff_price (tariff, start, price) VALUES (?, ?, ?)
       ON CONFLICT (tariff, start) DO UPDATE SET price = excluded.price WHERE price IS NOT excluded.price`,
    );
    this.range = db.prepare(
      "SELECT start, price FROM archived_tariff_price WHERE tariff = ? AND start >= ? AND start < ? ORDER BY start",
    );
  }

  save(tariff: string, prices: readonly ArchivedPrice[]): number {
    if (prices.length === 0) return 0;
    const write = this.db.transaction(() => {
      let written = 0;
      for (const price of prices) written += this.upsert.run(tariff, price.start, price.price).changes;
      return written;
    });
    return guard(this.path, () => write.immediate());
  }

  between(tariff: string, from: number, to: number): ArchivedPrice[] {
    return guard(this.path, () => this.range.all(tariff, from, to)).map((row) => {
      if (!Number.isSafeInteger(row.start) || typeof row.price !== "number" || !Number.isFinite(row.price))
        throw new StoreError(
          "corrupt",
          this.path,
          `an archived_tariff_price row in ${this.path} does not fit the schema: restore a backup, or move the file aside`,
        );
      return { start: row.start as number, price: row.price };
    });
  }
}
