export { checkRulesOnDevices, type DeviceCheck } from "./device-check.js";
export { RulesEngine, type RulesGate, type RulesOptions, startRules } from "./engine/index.js";
export { checkHouseForecast, type ForecastCheck, houseForecast } from "./house-forecast.js";
export { type LoadedRules, loadRules, RulesError, rulesPath } from "./load.js";
export { planSvg } from "./plan-svg.js";
export { planText } from "./plan-text.js";
export { type Preview, previewRules } from "./planners/preview.js";
export { type RulesFile, rulesTimeZone } from "./schema.js";
export { createTariff, type Rate, type Tariff } from "./tariffs/index.js";
