import type { HalfHourSample } from "../optimiser/index.js";
import type { HalfHourSeries } from "./series.js";

type Metered = "load" | "solar";

/** Each series' metered half-hours as samples, made once: a replay's forecasts learn from weeks of them every half-hour. */
const made = new WeakMap<HalfHourSeries, Partial<Record<Metered, readonly HalfHourSample[]>>>();

/** The series' load or solar as the forecasts' samples, one per half-hour. */
export function seriesSamples(series: HalfHourSeries, metered: Metered): readonly HalfHourSample[] {
  let kept = made.get(series);
  if (!kept) {
    kept = {};
    made.set(series, kept);
  }
  let samples = kept[metered];
  if (!samples) {
    samples = series[metered].map((kwh, t) => ({ start: series.starts[t] as number, kwh }));
    kept[metered] = samples;
  }
  return samples;
}
