import type { HalfHourSample } from "../optimiser/index.js";
import type { HalfHourSeries } from "./series.js";

/** The series' columns: kWh metered, or GBP per kWh. */
type Sampled = "load" | "solar" | "importPrice" | "exportPrice";

/** Each series' half-hours as samples, made once: a replay's forecasts learn from weeks of them every half-hour. */
const made = new WeakMap<HalfHourSeries, Partial<Record<Sampled, readonly HalfHourSample[]>>>();

/** One of the series' columns as the forecasts' samples, one per half-hour. */
export function seriesSamples(series: HalfHourSeries, sampled: Sampled): readonly HalfHourSample[] {
  let kept = made.get(series);
  if (!kept) {
    kept = {};
    made.set(series, kept);
  }
  let samples = kept[sampled];
  if (!samples) {
    samples = series[sampled].map((kwh, t) => ({ start: series.starts[t] as number, kwh }));
    kept[sampled] = samples;
  }
  return samples;
}
