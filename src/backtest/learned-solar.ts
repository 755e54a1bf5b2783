import { forecastSolar } from "../optimiser/index.js";
import type { HalfHourSeries } from "./series.js";
import { seriesSamples } from "./series-samples.js";

const DAY_SLOTS = 48;

/**
 * A solar forecast as a policy sees it at the start of slot t: the next `slots` half-hours, kWh.
 * Policies take one of these instead of calling forecastSolar themselves, so that the bench can
 * run them with the learned profile or with a modelled weather forecast.
 */
export type SolarForecaster = (t: number, slots: number) => number[];

/** The learned profile (src/optimiser/forecast.ts) from the past 14 days of the house's solar. */
export function learnedSolar(series: HalfHourSeries): SolarForecaster {
  return (t, slots) => {
    const from = Math.max(0, t - 14 * DAY_SLOTS);
    return forecastSolar(seriesSamples(series, "solar").slice(from, t), {
      from: series.starts[t] as number,
      timeZone: series.timeZone,
      slots,
    });
  };
}
