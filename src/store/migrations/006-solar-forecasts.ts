import type { Migration } from "../migrate.js";

/**
 * The solar forecast each provider last gave for every half-hour before it began
 * (solar_forecast), and each local day's forecast against what the inverter measured
 * (solar_forecast_day: the mean absolute error per half-hour), for the bias correction and
 * `rules plan`; and the requests sent to each forecast service per UTC day (forecast_request), so
 * that a restart or `rules plan` does not spend a service's daily allowance twice.
 */
export const solarForecasts: Migration = {
  version: 6,
  name: "solar forecasts against actual",
  up(db) {
    db.exec(`
      CREATE TABLE solar_forecast (
        provider TEXT NOT NULL,
        -- start of the half-hour, epoch ms
        start INTEGER NOT NULL,
        kwh REAL NOT NULL CHECK (kwh >= 0),
        fetched_at INTEGER NOT NULL,
        PRIMARY KEY (provider, start)
      ) STRICT;
      CREATE TABLE solar_forecast_day (
        provider TEXT NOT NULL,
        -- the local day (YYYY-MM-DD) in the house's zone
        day TEXT NOT NULL,
        slots INTEGER NOT NULL CHECK (slots > 0),
        forecast_kwh REAL NOT NULL,
        actual_kwh REAL NOT NULL,
        mae_kwh REAL NOT NULL CHECK (mae_kwh >= 0),
        PRIMARY KEY (provider, day)
      ) STRICT;
      CREATE TABLE forecast_request (
        service TEXT NOT NULL,
        -- the UTC day (YYYY-MM-DD): services count their allowance by it
        day TEXT NOT NULL,
        requests INTEGER NOT NULL CHECK (requests >= 0),
        PRIMARY KEY (service, day)
      ) STRICT;
    `);
  },
};
