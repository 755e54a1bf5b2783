import { describe, expect, it } from "vitest";
import { DAY_SLOTS, type Year } from "../../bench/planner-year/data.js";
import {
  calibrate,
  modelledWeather,
  persistenceRmse,
  type WeatherModel,
  weatherFactor,
} from "../../bench/planner-year/solar-forecasts.js";

const DAYS = 400;

/** A bell of solar each day whose size varies from day to day (a fixed pattern, no randomness). */
function solarSeries(): number[] {
  const out: number[] = [];
  for (let day = 0; day < DAYS; day++) {
    const size = 1 + 0.6 * Math.sin(day * 1.7) * Math.cos(day * 0.31);
    for (let slot = 0; slot < DAY_SLOTS; slot++) {
      const hour = slot / 2;
      out.push(hour > 6 && hour < 18 ? size * Math.sin(((hour - 6) / 12) * Math.PI) : 0);
    }
  }
  return out;
}

const yearOf = (solar: number[]): Year => ({
  starts: solar.map((_, slot) => slot * 30 * 60_000),
  importPrice: [],
  exportPrice: [],
  load: [],
  solar,
  timeZone: "Europe/London",
  pvFactor: 1,
  sydneyYieldKwhPerKwp: 1,
});

describe("the modelled weather forecast", () => {
  const solar = solarSeries();
  const model = calibrate(solar, 0.5, 7);

  it("is the same forecast for the same seed, and another for another seed", () => {
    const first = modelledWeather(yearOf(solar), model)(100, 96);
    const again = modelledWeather(yearOf(solar), calibrate(solar, 0.5, 7))(100, 96);
    const other = modelledWeather(yearOf(solar), calibrate(solar, 0.5, 8))(100, 96);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it("keeps a day's forecast through the re-plans of the day it is issued", () => {
    const forecast = modelledWeather(yearOf(solar), model);
    const morning = forecast(10 * DAY_SLOTS + 2, 96);
    const evening = forecast(10 * DAY_SLOTS + 40, 96);
    // Both are issued on day 10: slot 11 × 48 + 12 is tomorrow for both.
    expect(evening[11 * DAY_SLOTS + 12 - (10 * DAY_SLOTS + 40)]).toBe(
      morning[11 * DAY_SLOTS + 12 - (10 * DAY_SLOTS + 2)],
    );
  });

  it("is unbiased on average and errs more the further ahead it looks", () => {
    const factors = (lead: number) =>
      Array.from({ length: 20_000 }, (_, slot) => weatherFactor(model, Math.floor(slot / DAY_SLOTS) - lead, slot));
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const spread = (values: number[]) => Math.sqrt(mean(values.map((value) => (value - 1) ** 2)));
    for (const lead of [0, 1, 2]) expect(mean(factors(lead))).toBeCloseTo(1, 1);
    expect(Math.abs(mean(factors(1)) - 1)).toBeLessThan(0.02);
    expect(spread(factors(0))).toBeLessThan(spread(factors(1)));
    expect(spread(factors(1))).toBeLessThan(spread(factors(2)));
  });

  it("errs a day ahead by about the published skill's share of persistence's error", () => {
    const forecast = modelledWeather(yearOf(solar), model);
    let sum = 0;
    let count = 0;
    for (let day = 1; day < DAYS - 1; day++) {
      const tomorrow = forecast(day * DAY_SLOTS, 2 * DAY_SLOTS).slice(DAY_SLOTS);
      tomorrow.forEach((kwh, index) => {
        sum += (kwh - (solar[(day + 1) * DAY_SLOTS + index] as number)) ** 2;
        count++;
      });
    }
    const ratio = Math.sqrt(sum / count) / persistenceRmse(solar);
    expect(ratio).toBeGreaterThan(0.45);
    expect(ratio).toBeLessThan(0.55);
  });

  it("has no error when the model's variance is nil", () => {
    const exact: WeatherModel = { dayAheadLogVariance: 0, seed: 1 };
    expect(modelledWeather(yearOf(solar), exact)(30, 96)).toEqual(solar.slice(30, 126));
  });
});
