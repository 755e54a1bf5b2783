import { DAY_MS, forecastLoad, forecastSolar, type HalfHourSample } from "../optimiser/index.js";
import type { History } from "../store/index.js";
import { SLOT_MS } from "../time/index.js";
import { type HouseHistory, localDays, readHouseHistory } from "./house-history.js";
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
  return forecastAt(past, from, options.timeZone, options.slots ?? 96);
}

export interface ForecastCheck {
  /** Half-hours compared: those of the last day the store has readings for. */
  readonly slots: number;
  readonly load: { readonly forecastKwh: number; readonly actualKwh: number; readonly meanErrorKwh: number };
  readonly solar: { readonly forecastKwh: number; readonly actualKwh: number; readonly meanErrorKwh: number };
}

export interface HouseOutlook {
  readonly forecast: HouseForecast;
  /** How the forecast did over the last day; undefined when that day has no readings or nothing came before it. */
  readonly check: ForecastCheck | undefined;
}

/**
 * The forecast from now, and how it did over the last day (what it would have said a day ago,
 * from what the store held then, against what the store holds for that day), from one read of
 * the store: the last four weeks and the day before them.
 */
export function houseOutlook(
  history: Pick<History, "query">,
  options: { readonly now: number; readonly timeZone: string; readonly slots?: number },
): HouseOutlook {
  const { timeZone } = options;
  const from = Math.floor(options.now / SLOT_MS) * SLOT_MS;
  const past = readHouseHistory(history, { from: from - (LEARN_DAYS + 1) * DAY_MS, to: from, timeZone });
  return {
    forecast: forecastAt(past, from, timeZone, options.slots ?? 96),
    check: checkAt(past, from - DAY_MS, from, timeZone),
  };
}

/** The forecast from `from`, learned from the samples of the four weeks before it (the forecasts ignore the rest). */
function forecastAt(past: HouseHistory, from: number, timeZone: string, slots: number): HouseForecast {
  const since = from - LEARN_DAYS * DAY_MS;
  const learned = [...past.load, ...past.solar].filter((sample) => sample.start >= since && sample.start < from);
  const ahead = { from, timeZone, slots };
  return {
    from,
    load: forecastLoad(past.load, ahead),
    solar: forecastSolar(past.solar, ahead),
    days: localDays(
      learned.map((sample) => sample.start),
      timeZone,
    ),
  };
}

/** The forecast made at `from` for the day to `to`, against what the samples say that day was. */
function checkAt(past: HouseHistory, from: number, to: number, timeZone: string): ForecastCheck | undefined {
  const then = forecastAt(past, from, timeZone, 48);
  if (then.days === 0) return undefined;
  const inDay = (samples: readonly HalfHourSample[]) =>
    samples.filter((sample) => sample.start >= from && sample.start < to);
  const actual = { load: inDay(past.load), solar: inDay(past.solar) };
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
