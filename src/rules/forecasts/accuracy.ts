import { DAY_MS } from "../../optimiser/index.js";
import type { History, SolarForecastDay, SolarForecasts } from "../../store/index.js";
import { addDays, dayOf, dayStartMs, SLOT_MS } from "../../time/index.js";
import { readHouseHistory } from "../house/house-history.js";

/** The correction of a provider's bias is kept within these bounds: a broken meter must not zero the forecast. */
export const BIAS_BOUNDS = { min: 0.5, max: 1.5 } as const;
/** Below this much forecast energy in the window, there is too little to learn a bias from. */
const MIN_FORECAST_KWH = 1;

interface Pair {
  readonly start: number;
  readonly forecast: number;
  readonly actual: number;
}

/** Half-hours in [from, to) holding both the provider's recorded forecast and a measured value. */
function pairs(
  history: Pick<History, "query">,
  forecasts: SolarForecasts,
  query: { readonly provider: string; readonly from: number; readonly to: number; readonly timeZone: string },
): Pair[] {
  const forecast = new Map(
    forecasts.between(query.provider, query.from, query.to).map((slot) => [slot.start, slot.kwh]),
  );
  if (forecast.size === 0) return [];
  const actual = readHouseHistory(history, { from: query.from, to: query.to, timeZone: query.timeZone }).solar;
  return actual.flatMap((sample) => {
    const predicted = forecast.get(sample.start);
    return predicted === undefined ? [] : [{ start: sample.start, forecast: predicted, actual: sample.kwh }];
  });
}

export interface Bias {
  /** Actual over forecast, bounded; 1 when there is too little to learn from. */
  readonly ratio: number;
  /** Local days with at least one compared half-hour. */
  readonly days: number;
}

/** The ratio of what the inverter measured to what the provider forecast over the last `days` days. */
export function providerBias(
  history: Pick<History, "query">,
  forecasts: SolarForecasts,
  options: { readonly provider: string; readonly now: number; readonly timeZone: string; readonly days: number },
): Bias {
  if (options.days === 0) return { ratio: 1, days: 0 };
  const to = Math.floor(options.now / SLOT_MS) * SLOT_MS;
  const found = pairs(history, forecasts, { ...options, from: to - options.days * DAY_MS, to });
  const forecastKwh = found.reduce((sum, pair) => sum + pair.forecast, 0);
  const actualKwh = found.reduce((sum, pair) => sum + pair.actual, 0);
  const days = new Set(found.map((pair) => dayOf(pair.start, options.timeZone))).size;
  if (forecastKwh < MIN_FORECAST_KWH) return { ratio: 1, days };
  return { ratio: Math.min(BIAS_BOUNDS.max, Math.max(BIAS_BOUNDS.min, actualKwh / forecastKwh)), days };
}

/**
 * Each of the last `days` whole local days before now: the provider's forecast against what was
 * measured, with the mean absolute error per half-hour, saved in the store (a day is saved again
 * as late readings arrive). Returns the days saved, newest first.
 */
export function recordForecastDays(
  history: Pick<History, "query">,
  forecasts: SolarForecasts,
  options: { readonly provider: string; readonly now: number; readonly timeZone: string; readonly days: number },
): SolarForecastDay[] {
  const today = dayOf(options.now, options.timeZone);
  const first = addDays(today, -options.days);
  const found = pairs(history, forecasts, {
    provider: options.provider,
    from: dayStartMs(first, options.timeZone),
    to: dayStartMs(today, options.timeZone),
    timeZone: options.timeZone,
  });
  const byDay = new Map<string, Pair[]>();
  for (const pair of found) {
    const day = dayOf(pair.start, options.timeZone);
    byDay.set(day, [...(byDay.get(day) ?? []), pair]);
  }
  const saved: SolarForecastDay[] = [];
  for (const [day, dayPairs] of [...byDay.entries()].sort(([a], [b]) => b.localeCompare(a))) {
    const row: SolarForecastDay = {
      provider: options.provider,
      day,
      slots: dayPairs.length,
      forecastKwh: dayPairs.reduce((sum, pair) => sum + pair.forecast, 0),
      actualKwh: dayPairs.reduce((sum, pair) => sum + pair.actual, 0),
      maeKwh: dayPairs.reduce((sum, pair) => sum + Math.abs(pair.forecast - pair.actual), 0) / dayPairs.length,
    };
    forecasts.saveDay(row);
    saved.push(row);
  }
  return saved;
}
