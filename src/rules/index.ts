export { CALIBRATION_PLAN_NOTE } from "./engine/calibration-hold.js";
export { RulesEngine, type RulesGate, type RulesOptions, startRules } from "./engine/index.js";
export { defaultInverter } from "./engine/intents.js";
export { plannedOverlaps, sharedControlLines, sharedControlText } from "./file/control-overlaps.js";
export { checkRulesOnDevices, type DeviceCheck, refuseRulesNotFitting } from "./file/device-check.js";
export { type LoadedRules, loadRules, RulesError, rulesPath } from "./file/load.js";
export { type RulesFile, rulesTimeZone } from "./file/schema.js";
export { OCTOPUS_REGIONS } from "./file/tariff-schema.js";
export { forecastDaysLine, HomeAssistantForecastListener, type SolarForecastConfig } from "./forecasts/index.js";
export {
  type AttributedHouseForecast,
  type ForecastCheck,
  type HouseForecaster,
  type HouseOutlook,
  houseForecast,
  houseForecaster,
  houseOutlook,
  type ProviderSolar,
  withProviderSolar,
} from "./house/house-forecast.js";
export { planSvg } from "./plan-output/plan-svg.js";
export { planText } from "./plan-output/plan-text.js";
export { type CarRule, type CarSpec, carRules, carTargetIsSoc } from "./planners/car-windows.js";
export type { PriceHistory } from "./planners/optimise-windows.js";
export { PLAN_HOURS, type Preview, type PreviewCar, previewRules } from "./planners/preview.js";
export { type MeteredHouse, meteredGroup, readMeteredHouse, readMeteredInverters } from "./savings/metered-slots.js";
export { noBatteryCost } from "./savings/plan-baseline.js";
export {
  PRICE_HISTORY_DAYS,
  priceHistory,
  priceHistoryOrTariffs,
  type StoredPrices,
  withStoredPrices,
} from "./savings/price-history.js";
export {
  computeSavings,
  type Savings,
  type SavingsDay,
  type SavingsMonth,
  savingsBattery,
  savingsDaySchema,
  savingsMonthSchema,
  withoutStandingCharge,
} from "./savings/savings.js";
export { savingsOverMonths } from "./savings/savings-months.js";
export { savingsSummary } from "./savings/savings-summary.js";
export { createTariff, OctopusTariff, type Rate, type Tariff } from "./tariffs/index.js";
export { type RefreshedTariffs, refreshedTariffs } from "./tariffs/refreshed.js";
