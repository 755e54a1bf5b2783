import { z } from "zod";
import type { HalfHourSample } from "../../optimiser/index.js";
import { addSeries, type ForecastInterval, toHalfHours } from "./half-hours.js";
import { ForecastError, getJson } from "./http.js";

export const SOLCAST_URL = "https://api.solcast.com.au";

/** ISO 8601 durations Solcast uses for a period: PT5M, PT10M, PT15M, PT30M, PT60M. */
const period = z.string().regex(/^PT\d+M$/, "a period like PT30M");

const solcastPeriodSchema = z.object({
  /** Mean kW over the period (the median estimate). */
  pv_estimate: z.number().nonnegative(),
  pv_estimate10: z.number().nonnegative().optional(),
  pv_estimate90: z.number().nonnegative().optional(),
  period_end: z.string().refine((text) => !Number.isNaN(Date.parse(text)), "an ISO 8601 time"),
  period,
});

/** A rooftop site's forecasts answer. */
export const solcastAnswerSchema = z.object({ forecasts: z.array(solcastPeriodSchema) });
export type SolcastAnswer = z.infer<typeof solcastAnswerSchema>;

/** Solcast's mean kW per period (ending at period_end) as half-hour kWh. */
export function solcastHalfHours(answer: SolcastAnswer): HalfHourSample[] {
  const intervals: ForecastInterval[] = answer.forecasts.map((entry) => {
    const minutes = Number(entry.period.slice(2, -1));
    const end = Date.parse(entry.period_end);
    return { start: end - minutes * 60_000, end, kwh: (entry.pv_estimate * minutes) / 60 };
  });
  return toHalfHours(intervals);
}

/** One request per rooftop site; the sites' half-hours add up. The key goes in a header, never in the URL. */
export async function fetchSolcast(
  config: { readonly api_key: string; readonly sites: readonly string[] },
  options: { readonly baseUrl?: string; readonly signal?: AbortSignal; readonly beforeRequest: () => void },
): Promise<HalfHourSample[]> {
  const series: HalfHourSample[][] = [];
  for (const site of config.sites) {
    options.beforeRequest();
    const url = new URL(`${(options.baseUrl ?? SOLCAST_URL).replace(/\/$/, "")}/rooftop_sites/${site}/forecasts`);
    url.searchParams.set("format", "json");
    url.searchParams.set("hours", "72");
    const answer = await getJson("solcast", url, solcastAnswerSchema, {
      headers: { authorization: `Bearer ${config.api_key}` },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (answer.forecasts.length === 0) throw new ForecastError(`solcast: site ${site} answered no forecasts`);
    series.push(solcastHalfHours(answer));
  }
  return addSeries(series);
}
