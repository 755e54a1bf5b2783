import { z } from "zod";
import type { HalfHourSample } from "../../optimiser/index.js";
import type { SolarArray } from "./config.js";
import { addSeries, type ForecastInterval, toHalfHours } from "./half-hours.js";
import { ForecastError, getJson } from "./http.js";

export const FORECAST_SOLAR_URL = "https://api.forecast.solar";

/** An instant with its UTC offset, as `time=iso8601` asks for: "2024-04-26T07:00:00+02:00". */
const instant = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d([+-]\d\d:\d\d|Z)$/);

/** The estimate endpoint's answer (only what is used: Wh per period, keyed by the period's end). */
export const forecastSolarAnswerSchema = z.object({
  result: z.object({ watt_hours_period: z.record(instant, z.number().nonnegative()) }),
  message: z.object({ code: z.number(), type: z.string(), text: z.string().optional() }),
});
export type ForecastSolarAnswer = z.infer<typeof forecastSolarAnswerSchema>;

/**
 * Forecast.Solar's Wh per period as half-hour kWh. Each key is the end of its period, which runs
 * from the previous key of the same day (the first key of a day, at sunrise, carries 0).
 */
export function forecastSolarHalfHours(answer: ForecastSolarAnswer): HalfHourSample[] {
  const points = Object.entries(answer.result.watt_hours_period)
    .map(([at, wh]) => ({ at: Date.parse(at), day: at.slice(0, 10), wh }))
    .sort((a, b) => a.at - b.at);
  const intervals: ForecastInterval[] = [];
  points.forEach((point, index) => {
    const before = points[index - 1];
    if (before && before.day === point.day) intervals.push({ start: before.at, end: point.at, kwh: point.wh / 1000 });
  });
  return toHalfHours(intervals);
}

/** Degrees from south as Forecast.Solar counts them: -90 east, 0 south, 90 west. */
function fromSouth(azimuth: number): number {
  return Math.round((((azimuth - 180 + 540) % 360) - 180) * 10) / 10;
}

/** One request per array to the public estimate endpoint; the arrays' half-hours add up. */
export async function fetchForecastSolar(
  site: { readonly latitude: number; readonly longitude: number; readonly arrays: readonly SolarArray[] },
  options: { readonly baseUrl?: string; readonly signal?: AbortSignal; readonly beforeRequest: () => void },
): Promise<HalfHourSample[]> {
  const series: HalfHourSample[][] = [];
  for (const array of site.arrays) {
    options.beforeRequest();
    const path = ["estimate", site.latitude, site.longitude, array.tilt, fromSouth(array.azimuth), array.kwp].join("/");
    const url = new URL(`${(options.baseUrl ?? FORECAST_SOLAR_URL).replace(/\/$/, "")}/${path}`);
    url.searchParams.set("time", "iso8601");
    const answer = await getJson(
      "forecast.solar",
      url,
      forecastSolarAnswerSchema,
      options.signal ? { signal: options.signal } : {},
    );
    if (answer.message.code !== 0)
      throw new ForecastError(`forecast.solar: ${answer.message.text || answer.message.type}`);
    series.push(forecastSolarHalfHours(answer));
  }
  return addSeries(series);
}
