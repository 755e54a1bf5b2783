import { DAY_MS, forecastLoad, forecastSolar } from "../optimiser/index.js";
import type { History } from "../store/index.js";
import { SLOT_MS } from "../time/local-time.js";
import { readHouseHistory } from "./house-history.js";
import type { HouseForecast } from "./planners/optimise-windows.js";

/** How far back the forecasts learn from. */
const LEARN_DAYS = 28;

/**
 * The house's consumption and solar for the next `slots` half-hours, learned from the store's
 * history of the last four weeks (the method is in optimiser/forecast.ts), with how many days
 * it learned from: 0 when the store has nothing yet.
 */
export function houseForecast(
  history: Pick<History, "query">,
  options: { readonly now: number; readonly timeZone: string; readonly slots?: number },
): HouseForecast {
  const from = Math.floor(options.now / SLOT_MS) * SLOT_MS;
  const past = readHouseHistory(history, { from: from - LEARN_DAYS * DAY_MS, to: from, timeZone: options.timeZone });
  const ahead = { from, timeZone: options.timeZone, slots: options.slots ?? 96 };
  return {
    from,
    load: forecastLoad(past.load, ahead),
    solar: forecastSolar(past.solar, ahead),
    days: past.days,
  };
}

export interface ForecastCheck {
  /** Half-hours compared: those of the last day the store has readings for. */
  readonly slots: number;
  readonly load: { readonly forecastKwh: number; readonly actualKwh: number; readonly meanErrorKwh: number };
  readonly solar: { readonly forecastKwh: number; readonly actualKwh: number; readonly meanErrorKwh: number };
}

/**
 * How the forecast did over the last day: what it would have said a day ago, from what the store
 * held then, against what the store holds for that day. Undefined when that day has no readings.
 */
export function checkHouseForecast(
  history: Pick<History, "query">,
  options: { readonly now: number; readonly timeZone: string },
): ForecastCheck | undefined {
  const to = Math.floor(options.now / SLOT_MS) * SLOT_MS;
  const from = to - DAY_MS;
  const then = houseForecast(history, { now: from, timeZone: options.timeZone, slots: 48 });
  if (then.days === 0) return undefined;
  const actual = readHouseHistory(history, { from, to, timeZone: options.timeZone });
  const compare = (series: "load" | "solar") => {
    let forecastKwh = 0;
    let actualKwh = 0;
    let error = 0;
    for (const sample of actual[series]) {
      const predicted = then[series][Math.round((sample.start - from) / SLOT_MS)] ?? 0;
      forecastKwh += predicted;
      actualKwh += sample.kwh;
      error += Math.abs(predicted - sample.kwh);
    }
    const count = actual[series].length;
    return { forecastKwh, actualKwh, meanErrorKwh: count > 0 ? error / count : 0 };
  };
  const slots = Math.max(actual.load.length, actual.solar.length);
  if (slots === 0) return undefined;
  return { slots, load: compare("load"), solar: compare("solar") };
}
