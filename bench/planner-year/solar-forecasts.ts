import type { SolarForecaster } from "../../src/backtest/learned-solar.js";
import { DAY_SLOTS, type Year } from "./data.js";

export { learnedSolar, type SolarForecaster } from "../../src/backtest/learned-solar.js";

/*
 * The modelled weather forecast: no weather data exists for this year, so the forecast is the
 * real solar times a modelled error whose size comes from a published figure.
 *
 * After Perez et al., "Comparison of numerical weather prediction solar irradiance forecasts in
 * the US, Canada and Europe", Solar Energy 94 (2013) 305–326: over 34 sites the best day-ahead
 * forecasts (ECMWF-based) have a skill of about 50% against persistence, that is an RMSE about half
 * of persistence's. So the day-ahead error here is sized to give half the RMSE of persistence
 * (the same half-hour the day before) over this year's half-hours.
 *
 * Shape (modelled, not from the source): the forecast of slot s made on day I for a slot on day D
 * is solar[s] × exp(x(D, D−I) − v/2) × exp(ε − w/2), where
 * - x is the day's error in logs, a random walk towards the truth: x(D, 0) ~ N(0, v0) and
 *   x(D, L) = x(D, L−1) + N(0, v_L), so the same day's forecast is better than tomorrow's and
 *   worse than the day after's, and a day's forecast issued on one day is the same at every
 *   re-plan of that day;
 * - ε ~ N(0, w) is each half-hour's own error (the timing of clouds), drawn once per slot and lead;
 * - the halves −v/2 and −w/2 make every factor's mean exactly 1 (lognormal), so the forecast is
 *   unbiased on average.
 * At one day ahead the day's and the half-hour's errors each carry half the log variance; the
 * same day's variance is 0.5 of the day-ahead's, two days ahead 1.3 times it (modelled).
 * Every draw comes from a PRNG seeded by the seed, the day and the lead (or slot), so runs repeat.
 */

export const WEATHER_SKILL_VS_PERSISTENCE = 0.5;
export const WEATHER_SOURCE =
  "Perez et al. 2013, Solar Energy 94:305-326 (day-ahead NWP skill about 50% against persistence at 34 sites in the US, Canada and Europe)";
/** Variance of the day's log error at each lead (days), relative to one day ahead. */
const LEAD_VARIANCE = [0.5, 1, 1.3] as const;
/** Share of the day-ahead log variance that is the day's (the rest is each half-hour's own). */
const DAY_SHARE = 0.5;

export interface WeatherModel {
  /** Log variance of the whole error at one day ahead. */
  readonly dayAheadLogVariance: number;
  readonly seed: number;
}

/** RMSE of persistence (each half-hour forecast by the same half-hour a day before) over the series. */
export function persistenceRmse(solar: readonly number[]): number {
  let sum = 0;
  for (let t = DAY_SLOTS; t < solar.length; t++) sum += ((solar[t] as number) - (solar[t - DAY_SLOTS] as number)) ** 2;
  return Math.sqrt(sum / Math.max(1, solar.length - DAY_SLOTS));
}

/**
 * The log variance that gives a day-ahead RMSE of `skill` × persistence's: for f = a × m with m
 * lognormal of mean 1 and independent of a, E[(f − a)²] = E[a²] (e^σ² − 1).
 */
export function calibrate(solar: readonly number[], skill: number, seed: number): WeatherModel {
  const meanSquare =
    solar.slice(DAY_SLOTS).reduce((sum, kwh) => sum + kwh * kwh, 0) / Math.max(1, solar.length - DAY_SLOTS);
  const target = skill * persistenceRmse(solar);
  return { dayAheadLogVariance: Math.log(1 + (target * target) / meanSquare), seed };
}

/** mulberry32 seeded from a few integers: a small, fast, repeatable PRNG. */
function random(...keys: number[]): () => number {
  let state = 0x9e3779b9;
  for (const key of keys) state = Math.imul(state ^ (key | 0), 0x85ebca6b) ^ (state >>> 13);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller) from a PRNG keyed by the given integers. */
export function normal(...keys: number[]): number {
  const next = random(...keys);
  const u = Math.max(next(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
}

/** The multiplicative error of the forecast made on day `issued` for slot `slot` (mean 1). */
export function weatherFactor(model: WeatherModel, issued: number, slot: number): number {
  const day = Math.floor(slot / DAY_SLOTS);
  const lead = Math.min(LEAD_VARIANCE.length - 1, Math.max(0, day - issued));
  const dayVariance = model.dayAheadLogVariance * DAY_SHARE;
  let x = 0;
  let previous = 0;
  for (let step = 0; step <= lead; step++) {
    const variance = dayVariance * (LEAD_VARIANCE[step] as number);
    x += Math.sqrt(variance - previous) * normal(model.seed, 1, day, step);
    previous = variance;
  }
  const slotVariance = model.dayAheadLogVariance * (1 - DAY_SHARE) * (LEAD_VARIANCE[lead] as number);
  const epsilon = Math.sqrt(slotVariance) * normal(model.seed, 2, slot, lead);
  return Math.exp(x - previous / 2) * Math.exp(epsilon - slotVariance / 2);
}

/** The modelled weather forecast over the year: the real solar of each slot times its error. */
export function modelledWeather(year: Year, model: WeatherModel): SolarForecaster {
  return (t, slots) => {
    const issued = Math.floor(t / DAY_SLOTS);
    const end = Math.min(year.solar.length, t + slots);
    const out: number[] = [];
    for (let slot = t; slot < end; slot++) out.push((year.solar[slot] as number) * weatherFactor(model, issued, slot));
    while (out.length < slots) out.push(0);
    return out;
  };
}
