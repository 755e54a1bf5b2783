import type { Migration } from "../migrate.js";

/**
 * Past half-hour prices of tariffs the house is not on (archived_tariff_price), fetched for the
 * backtest's "which tariff would have paid", so that a second run asks the tariff's API nothing.
 * A tariff is named by its code, e.g. E-1R-AGILE-24-10-01-C.
 */
export const archivedTariffPrices: Migration = {
  version: 10,
  name: "archived tariff prices",
  up(db) {
    db.exec(`
      CREATE TABLE archived_tariff_price (
        tariff TEXT NOT NULL,
        -- the slot, epoch ms
        start INTEGER NOT NULL,
        -- GBP per kWh
        price REAL NOT NULL,
        PRIMARY KEY (tariff, start)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
