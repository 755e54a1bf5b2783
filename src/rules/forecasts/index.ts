export { BIAS_BOUNDS, type Bias, providerBias, recordForecastDays } from "./accuracy.js";
export { forecastDaysLine } from "./accuracy-text.js";
export { budgetFor, RequestBudget, type RequestCounts } from "./budget.js";
export {
  type SolarArray,
  type SolarForecastConfig,
  type SolarProviderName,
  solarArraySchema,
  solarForecastSchema,
} from "./config.js";
export { SolarForecastFeed, type SolarForecastFeedOptions, type SolarForecastSnapshot } from "./feed.js";
export { FORECAST_SOLAR_URL, forecastSolarAnswerSchema, forecastSolarHalfHours } from "./forecast-solar.js";
export { type ForecastInterval, toHalfHours } from "./half-hours.js";
export { homeAssistantHalfHours } from "./home-assistant-file.js";
export {
  type BadPayloadHandler,
  type HeardForecast,
  type HeardForecasts,
  HomeAssistantForecastListener,
} from "./home-assistant-mqtt.js";
export { sensorHalfHours } from "./home-assistant-sensor.js";
export { ForecastError } from "./http.js";
export { OPEN_METEO_URL, openMeteoAnswerSchema, openMeteoHalfHours } from "./open-meteo.js";
export { SOLCAST_URL, solcastAnswerSchema, solcastHalfHours } from "./solcast.js";
