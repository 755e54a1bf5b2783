import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { HalfHourSample } from "../../optimiser/index.js";
import { forecastSolarAnswerSchema, forecastSolarHalfHours } from "./forecast-solar.js";
import { ForecastError, parseBody } from "./http.js";
import { solcastHalfHours } from "./solcast.js";

/** A Solcast integration sensor's detailedForecast: mean kW per half-hour from period_start. */
const detailedForecast = z.array(
  z.object({
    period_start: z.string().refine((text) => !Number.isNaN(Date.parse(text)), "an ISO 8601 time"),
    pv_estimate: z.number().nonnegative(),
  }),
);

/**
 * What a Home Assistant sensor carries, written to a file (a state object with attributes, or
 * the attributes alone): the Solcast integration's `detailedForecast` (or `forecast`), or
 * Forecast.Solar's `watt_hours_period`.
 */
const sensorSchema = z.union([
  z
    .object({ attributes: z.object({ detailedForecast }) })
    .transform((state) => ({ detailed: state.attributes.detailedForecast })),
  z
    .object({ attributes: z.object({ forecast: detailedForecast }) })
    .transform((state) => ({ detailed: state.attributes.forecast })),
  z.object({ detailedForecast }).transform((attributes) => ({ detailed: attributes.detailedForecast })),
  z
    .object({ watt_hours_period: forecastSolarAnswerSchema.shape.result.shape.watt_hours_period })
    .transform((attributes) => ({
      periods: attributes.watt_hours_period,
    })),
]);

export function homeAssistantHalfHours(body: unknown): HalfHourSample[] {
  const parsed = parseBody("home-assistant-file", body, sensorSchema);
  if ("periods" in parsed)
    return forecastSolarHalfHours({
      result: { watt_hours_period: parsed.periods },
      message: { code: 0, type: "success" },
    });
  return solcastHalfHours({
    forecasts: parsed.detailed.map((entry) => ({
      pv_estimate: entry.pv_estimate,
      period_end: new Date(Date.parse(entry.period_start) + 30 * 60_000).toISOString(),
      period: "PT30M",
    })),
  });
}

export async function readHomeAssistantFile(
  file: string,
  options: { readonly beforeRequest: () => void },
): Promise<HalfHourSample[]> {
  options.beforeRequest();
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new ForecastError(
      `home-assistant-file: cannot read ${file} (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ForecastError(`home-assistant-file: ${file} is not JSON`);
  }
  return homeAssistantHalfHours(body);
}
