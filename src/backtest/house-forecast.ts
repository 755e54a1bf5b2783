import { forecastLoad, type HalfHourSample } from "../optimiser/index.js";
import type { HouseForecast } from "../rules/planners/optimise-windows.js";
import type { SolarForecaster } from "./learned-solar.js";
import type { HalfHourSeries } from "./series.js";

const DAY = 48;

/** Each series' load as samples, made once: a replay asks for 28 days of them every half-hour. */
const samplesOf = new WeakMap<HalfHourSeries, readonly HalfHourSample[]>();

function loadSamples(series: HalfHourSeries): readonly HalfHourSample[] {
  let samples = samplesOf.get(series);
  if (!samples) {
    samples = series.load.map((kwh, t) => ({ start: series.starts[t] as number, kwh }));
    samplesOf.set(series, samples);
  }
  return samples;
}

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
    load: forecastLoad(loadSamples(series).slice(from, t), { from: at, timeZone: series.timeZone, slots }),
    solar: solar(t, slots),
    days: Math.min(28, Math.floor(t / DAY)),
  };
}
