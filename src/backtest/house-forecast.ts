import { forecastLoad } from "../optimiser/index.js";
import type { HouseForecast } from "../rules/planners/optimise-windows.js";
import type { SolarForecaster } from "./learned-solar.js";
import type { HalfHourSeries } from "./series.js";
import { seriesSamples } from "./series-samples.js";

const DAY = 48;

/**
 * The house's forecast as the daemon's optimise rule reads it at the start of slot t: the load
 * learned from the last 28 days of the series, the solar from `solar`, for the next `slots`.
 */
export function houseForecastAt(
  series: HalfHourSeries,
  solar: SolarForecaster,
  t: number,
  slots: number,
): HouseForecast {
  const at = series.starts[t] as number;
  const from = Math.max(0, t - 28 * DAY);
  return {
    from: at,
    load: forecastLoad(seriesSamples(series, "load").slice(from, t), { from: at, timeZone: series.timeZone, slots }),
    solar: solar(t, slots),
    days: Math.min(28, Math.floor(t / DAY)),
  };
}
