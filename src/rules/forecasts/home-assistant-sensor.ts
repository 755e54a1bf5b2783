import { z } from "zod";
import type { HalfHourSample } from "../../optimiser/index.js";
import { forecastSolarHalfHours } from "./forecast-solar.js";
import { type ForecastInterval, toHalfHours } from "./half-hours.js";
import { ForecastError } from "./http.js";

/*
 * What Home Assistant forecast sensors carry in their attributes, as a state object, as the
 * attributes alone, or as one attribute's value (what mqtt_statestream publishes on
 * `<base>/<domain>/<object_id>/<attribute>`):
 * - the Solcast integration's `detailedForecast` (half-hours) and `detailedHourly` (hours): a list
 *   of { period_start, pv_estimate } in mean kW over the period from period_start;
 * - Forecast.Solar's `wh_period` (or the API's `watt_hours_period`): Wh per period, keyed by the
 *   period's END (the first key of a day, at sunrise, carries 0), and its `watts`: the power (W)
 *   at each instant, whose consecutive pairs on one day make the energy of the period between.
 */

const instant = z.string().refine((text) => !Number.isNaN(Date.parse(text)), "an ISO 8601 time with its offset");

const solcastEntry = z.object({ period_start: instant, pv_estimate: z.number().nonnegative() });
const solcastList = z.array(solcastEntry);
const timeMap = z.record(instant, z.number().nonnegative());

/** The attribute names each shape goes by. */
const SOLCAST_LISTS = ["detailedForecast", "detailedHourly", "forecast"] as const;
const ENERGY_MAPS = ["wh_period", "watt_hours_period"] as const;

type Shape =
  | { readonly kind: "solcast"; readonly entries: z.infer<typeof solcastList>; readonly hourly: boolean }
  | { readonly kind: "wh"; readonly map: Record<string, number> }
  | { readonly kind: "watts"; readonly map: Record<string, number> };

const attributesSchema = z
  .object({
    detailedForecast: solcastList.optional(),
    detailedHourly: solcastList.optional(),
    forecast: solcastList.optional(),
    wh_period: timeMap.optional(),
    watt_hours_period: timeMap.optional(),
    watts: timeMap.optional(),
  })
  .transform((attributes, context): Shape => {
    for (const name of SOLCAST_LISTS) {
      const entries = attributes[name];
      if (entries) return { kind: "solcast", entries, hourly: name === "detailedHourly" };
    }
    for (const name of ENERGY_MAPS) {
      const map = attributes[name];
      if (map) return { kind: "wh", map };
    }
    if (attributes.watts) return { kind: "watts", map: attributes.watts };
    context.addIssue({
      code: "custom",
      message: `none of ${[...SOLCAST_LISTS, ...ENERGY_MAPS, "watts"].join(", ")} is there`,
    });
    return z.NEVER;
  });

const stateSchema = z.object({ attributes: attributesSchema });

/** The attribute a topic's last level names, for a bare list or map (a statestream attribute topic). */
function bareShape(body: unknown, attribute: string | undefined): Shape | undefined {
  if (Array.isArray(body)) {
    const entries = solcastList.safeParse(body);
    if (!entries.success)
      throw new ForecastError(`a list, but not of { period_start, pv_estimate }: ${first(entries)}`);
    return { kind: "solcast", entries: entries.data, hourly: attribute === "detailedHourly" };
  }
  if (attribute !== "watts" && !ENERGY_MAPS.some((name) => name === attribute)) return undefined;
  const map = timeMap.safeParse(body);
  if (!map.success) throw new ForecastError(`${attribute}: not a map of times to numbers: ${first(map)}`);
  return attribute === "watts" ? { kind: "watts", map: map.data } : { kind: "wh", map: map.data };
}

function first(result: { error?: z.ZodError | undefined }): string {
  const issue = result.error?.issues[0];
  return issue ? `${issue.path.join(".") || "(the body)"}: ${issue.message}` : "";
}

/**
 * A sensor's forecast as half-hour kWh. `attribute` is the attribute a bare value belongs to (the
 * last level of a statestream topic, say), which tells a `watts` map from a `wh_period` one.
 * Throws a ForecastError saying what was expected.
 */
export function sensorHalfHours(body: unknown, attribute?: string): HalfHourSample[] {
  const shape =
    bareShape(body, attribute) ??
    (() => {
      const hasState = typeof body === "object" && body !== null && "attributes" in body;
      const parsed = hasState ? stateSchema.safeParse(body) : attributesSchema.safeParse(body);
      if (parsed.success) return "attributes" in parsed.data ? parsed.data.attributes : parsed.data;
      throw new ForecastError(
        `not a forecast sensor's state or attributes (Solcast's detailedForecast or detailedHourly, Forecast.Solar's wh_period or watts): ${first(parsed)}`,
      );
    })();
  switch (shape.kind) {
    case "solcast":
      return solcastListHalfHours(shape.entries, shape.hourly);
    case "wh":
      return forecastSolarHalfHours({
        result: { watt_hours_period: shape.map },
        message: { code: 0, type: "success" },
      });
    case "watts":
      return wattsHalfHours(shape.map);
  }
}

/**
 * Solcast's mean kW from each period_start. The period is the list's step (30 minutes for
 * detailedForecast, 60 for detailedHourly; a list of one entry takes its attribute's).
 */
function solcastListHalfHours(entries: z.infer<typeof solcastList>, hourly: boolean): HalfHourSample[] {
  const starts = entries.map((entry) => Date.parse(entry.period_start)).sort((a, b) => a - b);
  let step = Number.POSITIVE_INFINITY;
  for (let i = 1; i < starts.length; i++) {
    const gap = (starts[i] ?? 0) - (starts[i - 1] ?? 0);
    if (gap > 0) step = Math.min(step, gap);
  }
  const periodMs = Number.isFinite(step) ? step : (hourly ? 60 : 30) * 60_000;
  const intervals: ForecastInterval[] = entries.map((entry) => {
    const start = Date.parse(entry.period_start);
    return { start, end: start + periodMs, kwh: (entry.pv_estimate * periodMs) / 3_600_000 };
  });
  return toHalfHours(intervals);
}

/** Forecast.Solar's power at instants: each pair of consecutive instants on one day bounds a period of their mean power. */
function wattsHalfHours(map: Record<string, number>): HalfHourSample[] {
  const points = Object.entries(map)
    .map(([at, watts]) => ({ at: Date.parse(at), day: at.slice(0, 10), watts }))
    .sort((a, b) => a.at - b.at);
  const intervals: ForecastInterval[] = [];
  points.forEach((point, index) => {
    const before = points[index - 1];
    if (before && before.day === point.day)
      intervals.push({
        start: before.at,
        end: point.at,
        kwh: ((before.watts + point.watts) / 2 / 1000) * ((point.at - before.at) / 3_600_000),
      });
  });
  return toHalfHours(intervals);
}
