export { type CarNeed, type CarPlan, type CarPlanInput, planWithCar } from "./car-plan.js";
export { type SlotResult, slotCost, slotEnergy } from "./energy.js";
export {
  type ExplainedSlot,
  type ExplainOptions,
  explainedSlotSchema,
  explainSchedule,
  priceText,
  type ScheduleBasis,
  SLOT_ACTIONS,
  slotActionSchema,
} from "./explain.js";
export {
  DAY_MS,
  type ForecastOptions,
  forecastLoad,
  forecastSeries,
  forecastSolar,
  type HalfHourSample,
  HOUSE_LOAD,
  HOUSE_SOLAR,
  halfHourSampleSchema,
  KeptForecast,
  PRICE_FORECAST,
} from "./forecast.js";
export {
  type Battery,
  batterySchema,
  MODES,
  type Mode,
  modeSchema,
  type OptimiseInput,
  type OptimiseOptions,
  optimiseInputSchema,
  type PlannedSlot,
  type Schedule,
  type SlotAction,
} from "./model.js";
export { optimise } from "./optimise.js";
export { PLAN_SOC_STEP_KWH, type PlanAheadInput, planAhead } from "./plan-ahead.js";
export { terminalValue } from "./terminal-value.js";
