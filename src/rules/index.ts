export { plannedOverlaps, sharedControlLines, sharedControlText } from "./control-overlaps.js";
export { checkRulesOnDevices, type DeviceCheck, refuseRulesNotFitting } from "./device-check.js";
export { RulesEngine, type RulesGate, type RulesOptions, startRules } from "./engine/index.js";
export { defaultInverter } from "./engine/intents.js";
export { forecastDaysLine, HomeAssistantForecastListener, type SolarForecastConfig } from "./forecasts/index.js";
export {
  type ForecastCheck,
  type HouseForecaster,
  type HouseOutlook,
  houseForecast,
  houseForecaster,
  houseOutlook,
  type ProviderSolar,
  type SourcedHouseForecast,
  withProviderSolar,
} from "./house-forecast.js";
export { type LoadedRules, loadRules, RulesError, rulesPath } from "./load.js";
export { type MeteredHouse, readMeteredHouse } from "./metered-slots.js";
export { noBatteryCost } from "./plan-baseline.js";
export { planSvg } from "./plan-svg.js";
export { planText } from "./plan-text.js";
export { type CarRule, type CarSpec, carRules, carTargetIsSoc } from "./planners/car-windows.js";
export type { PriceHistory } from "./planners/optimise-windows.js";
export { type Preview, type PreviewCar, previewRules } from "./planners/preview.js";
export {
  PRICE_HISTORY_DAYS,
  priceHistory,
  priceHistoryOrTariffs,
  type StoredPrices,
  withStoredPrices,
} from "./price-history.js";
export {
  computeSavings,
  type Savings,
  type SavingsDay,
  type SavingsMonth,
  savingsBattery,
  savingsDaySchema,
  savingsMonthSchema,
} from "./savings.js";
export { savingsSummary } from "./savings-summary.js";
export { type RulesFile, rulesTimeZone } from "./schema.js";
export { createTariff, OctopusTariff, type Rate, type Tariff } from "./tariffs/index.js";
export { type RefreshedTariffs, refreshedTariffs } from "./tariffs/refreshed.js";
