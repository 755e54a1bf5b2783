import { z } from "zod";
import type { HalfHourSample } from "../../optimiser/index.js";
import { HOUR_MS } from "../../time/index.js";
import type { SolarArray } from "./config.js";
import { addSeries, type ForecastInterval, toHalfHours } from "./half-hours.js";
import { ForecastError, getJson } from "./http.js";

export const OPEN_METEO_URL = "https://api.open-meteo.com";

const watts = z.array(z.number().nonnegative().nullable());

/** The forecast endpoint's answer (only what is used). Times are local to utc_offset_seconds, without an offset. */
export const openMeteoAnswerSchema = z.object({
  utc_offset_seconds: z.number().int(),
  hourly: z.object({
    time: z.array(z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/)),
    global_tilted_irradiance: watts.optional(),
    shortwave_radiation: watts.optional(),
  }),
});
export type OpenMeteoAnswer = z.infer<typeof openMeteoAnswerSchema>;

/**
 * PV energy per half-hour from the hourly irradiance on the array's plane: W/m² / 1000 W/m² x
 * kWp x performance ratio, for one hour. Open-Meteo's hourly radiation is the mean of the hour
 * before its time, so the value at 12:00 is the energy of 11:00-12:00. Where the tilted value is
 * missing, the horizontal (shortwave) one stands in.
 */
export function openMeteoHalfHours(answer: OpenMeteoAnswer, kwp: number, performanceRatio: number): HalfHourSample[] {
  const { time, global_tilted_irradiance: tilted, shortwave_radiation: horizontal } = answer.hourly;
  if (!tilted && !horizontal)
    throw new ForecastError("open-meteo: the answer has neither global_tilted_irradiance nor shortwave_radiation");
  for (const [name, values] of [
    ["global_tilted_irradiance", tilted],
    ["shortwave_radiation", horizontal],
  ] as const)
    if (values && values.length !== time.length)
      throw new ForecastError(`open-meteo: ${name} has ${values.length} values for ${time.length} hours`);
  const intervals: ForecastInterval[] = [];
  time.forEach((local, index) => {
    const irradiance = tilted?.[index] ?? horizontal?.[index] ?? null;
    if (irradiance === null) return;
    const end = Date.parse(`${local}:00Z`) - answer.utc_offset_seconds * 1000;
    intervals.push({ start: end - HOUR_MS, end, kwh: (irradiance / 1000) * kwp * performanceRatio });
  });
  return toHalfHours(intervals);
}

/** Degrees from south as Open-Meteo counts them: -90 east, 0 south, 90 west. */
function fromSouth(azimuth: number): number {
  return Math.round((((azimuth - 180 + 540) % 360) - 180) * 10) / 10;
}

/** One request per array (the irradiance depends on the plane); the arrays' half-hours add up. */
export async function fetchOpenMeteo(
  site: {
    readonly latitude: number;
    readonly longitude: number;
    readonly arrays: readonly SolarArray[];
    readonly performance_ratio: number;
  },
  options: { readonly baseUrl?: string; readonly signal?: AbortSignal; readonly beforeRequest: () => void },
): Promise<HalfHourSample[]> {
  const series: HalfHourSample[][] = [];
  for (const array of site.arrays) {
    options.beforeRequest();
    const url = new URL(`${(options.baseUrl ?? OPEN_METEO_URL).replace(/\/$/, "")}/v1/forecast`);
    url.searchParams.set("latitude", String(site.latitude));
    url.searchParams.set("longitude", String(site.longitude));
    url.searchParams.set("hourly", "global_tilted_irradiance,shortwave_radiation");
    url.searchParams.set("tilt", String(array.tilt));
    url.searchParams.set("azimuth", String(fromSouth(array.azimuth)));
    url.searchParams.set("timezone", "GMT");
    url.searchParams.set("forecast_days", "3");
    const answer = await getJson(
      "open-meteo",
      url,
      openMeteoAnswerSchema,
      options.signal ? { signal: options.signal } : {},
    );
    series.push(openMeteoHalfHours(answer, array.kwp, site.performance_ratio));
  }
  return addSeries(series);
}
