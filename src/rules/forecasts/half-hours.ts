import type { HalfHourSample } from "../../optimiser/index.js";
import { SLOT_MS } from "../../time/index.js";

/** Energy a provider forecast for one interval, epoch ms, start before end. */
export interface ForecastInterval {
  readonly start: number;
  readonly end: number;
  readonly kwh: number;
}

/**
 * The intervals' energy per half-hour, spread evenly over each interval's time (an hour's kWh
 * splits in two, a 40-minute period shares between the half-hours it touches), sorted by start.
 * Several arrays or sites forecasting the same half-hour add up.
 */
export function toHalfHours(intervals: readonly ForecastInterval[]): HalfHourSample[] {
  const sums = new Map<number, number>();
  for (const interval of intervals) {
    const length = interval.end - interval.start;
    if (length <= 0) continue;
    for (let slot = Math.floor(interval.start / SLOT_MS) * SLOT_MS; slot < interval.end; slot += SLOT_MS) {
      const overlap = Math.min(interval.end, slot + SLOT_MS) - Math.max(interval.start, slot);
      if (overlap > 0) sums.set(slot, (sums.get(slot) ?? 0) + (interval.kwh * overlap) / length);
    }
  }
  return [...sums.entries()].sort(([a], [b]) => a - b).map(([start, kwh]) => ({ start, kwh }));
}

/** Adds series forecast for different arrays or sites, half-hour by half-hour. */
export function addSeries(series: readonly (readonly HalfHourSample[])[]): HalfHourSample[] {
  const sums = new Map<number, number>();
  for (const samples of series)
    for (const sample of samples) sums.set(sample.start, (sums.get(sample.start) ?? 0) + sample.kwh);
  return [...sums.entries()].sort(([a], [b]) => a - b).map(([start, kwh]) => ({ start, kwh }));
}
