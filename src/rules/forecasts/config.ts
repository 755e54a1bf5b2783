import { z } from "zod";

/** One plane of panels: its peak power, its tilt from horizontal and its compass azimuth (180 = south). */
export const solarArraySchema = z.strictObject({
  kwp: z.number().positive().max(1000),
  tilt: z.number().min(0).max(90),
  /** Compass degrees the panels face: 90 east, 180 south, 270 west. */
  azimuth: z.number().min(0).max(360),
});
export type SolarArray = z.infer<typeof solarArraySchema>;

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
const httpUrl = z
  .string()
  .url("expected an http(s) URL, e.g. https://api.open-meteo.com")
  .refine((text) => /^https?:\/\//.test(text), "expected an http(s) URL");

/** What every provider takes: how often it is asked, and how many requests a day its service allows. */
const common = {
  /** Minutes between refreshes; the last good answer is kept in between and after a failure. */
  refresh_minutes: z
    .number()
    .int()
    .min(5)
    .max(24 * 60),
  /** Requests a day (UTC) this daemon may send to the service: one budget per service. */
  daily_requests: z.number().int().min(1).max(10_000),
  /** Days of forecast against actual the bias correction learns from. */
  bias_days: z.number().int().min(0).max(60).default(14),
  /** Where the service is; the tests point it at 127.0.0.1. */
  base_url: httpUrl.optional(),
};

const site = {
  latitude,
  longitude,
  arrays: z.array(solarArraySchema).min(1, "give at least one array as { kwp, tilt, azimuth }"),
};

export const forecastSolarConfigSchema = z.strictObject({
  provider: z.literal("forecast.solar"),
  ...site,
  ...common,
  // The public tier allows 12 requests an hour per IP; one request per array per refresh.
  refresh_minutes: common.refresh_minutes.default(60),
  daily_requests: common.daily_requests.default(48),
});

export const openMeteoConfigSchema = z.strictObject({
  provider: z.literal("open-meteo"),
  ...site,
  ...common,
  /** Output over irradiance x kWp / 1 kW/m²: inverter, wiring, heat and soiling losses. */
  performance_ratio: z.number().gt(0).max(1).default(0.8),
  refresh_minutes: common.refresh_minutes.default(60),
  daily_requests: common.daily_requests.default(200),
});

export const solcastConfigSchema = z.strictObject({
  provider: z.literal("solcast"),
  /** The API key of a Solcast account (kept out of logs). */
  api_key: z.string().min(1, "the key from the Solcast account page"),
  /** Rooftop site resource ids, as the Solcast account lists them (e.g. two for east and west). */
  sites: z.array(z.string().regex(/^[A-Za-z0-9-]+$/, "a Solcast resource id, e.g. 1234-5678-9abc-def0")).min(1),
  ...common,
  // The hobbyist plan allows 10 calls a day: every 3 hours per site stays inside it for one site.
  refresh_minutes: common.refresh_minutes.default(180),
  daily_requests: common.daily_requests.default(10),
});

export const homeAssistantFileConfigSchema = z.strictObject({
  provider: z.literal("home-assistant-file"),
  /** A JSON file holding a sensor's forecast: Solcast's detailedForecast or detailedHourly, Forecast.Solar's wh_period or watts. */
  file: z.string().min(1),
  ...common,
  refresh_minutes: common.refresh_minutes.default(15),
  daily_requests: common.daily_requests.default(10_000),
});

/** An MQTT topic to subscribe to: one sensor's state or one of its attributes, no wildcards. */
const topic = z
  .string()
  .min(1)
  .refine(
    (text) => !/[+#]/.test(text),
    "a topic without wildcards, e.g. homeassistant/sensor/solcast_pv_forecast_forecast_today/detailedForecast",
  );

export const homeAssistantMqttConfigSchema = z.strictObject({
  provider: z.literal("home-assistant-mqtt"),
  /**
   * Topics carrying a forecast sensor's state or attributes (an automation's JSON) or one attribute
   * (mqtt_statestream's `<base>/sensor/<object_id>/detailedForecast`), e.g. today's and tomorrow's.
   */
  topics: z.array(topic).min(1, "give at least one topic"),
  /** Minutes between looks at what came in (nothing is requested: Home Assistant publishes). */
  refresh_minutes: common.refresh_minutes.default(5),
  bias_days: common.bias_days,
});

const PROVIDERS = ["forecast.solar", "open-meteo", "solcast", "home-assistant-file", "home-assistant-mqtt"] as const;

export const solarForecastSchema = z.discriminatedUnion(
  "provider",
  [
    forecastSolarConfigSchema,
    openMeteoConfigSchema,
    solcastConfigSchema,
    homeAssistantFileConfigSchema,
    homeAssistantMqttConfigSchema,
  ],
  { error: () => `one of ${PROVIDERS.join(", ")}` },
);
export type SolarForecastConfig = z.infer<typeof solarForecastSchema>;
export type SolarProviderName = SolarForecastConfig["provider"];
