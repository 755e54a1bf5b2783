import type { Migration } from "../migrate.js";

/**
 * The tariffs' published half-hour prices (published_price), so that the optimiser's price
 * forecast, `rules plan` and the savings have the past days' prices after a restart. A price
 * published again for the same slot replaces the old one.
 */
export const publishedPrices: Migration = {
  version: 7,
  name: "published prices",
  up(db) {
    db.exec(`
      CREATE TABLE published_price (
        side TEXT NOT NULL CHECK (side IN ('import', 'export')),
        -- the slot, epoch ms
        start INTEGER NOT NULL,
        "end" INTEGER NOT NULL CHECK ("end" > start),
        -- currency per kWh, as the tariff holds it
        price REAL NOT NULL,
        -- what the tariff reported of the price beyond the number (e.g. 'estimated'); NULL: nothing
        reported TEXT,
        PRIMARY KEY (side, start)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
