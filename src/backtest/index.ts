export { type BacktestInput, type PricedTariff, runBacktest } from "./backtest.js";
export { CONFIGURED_TARIFF, configuredPrices } from "./configured-prices.js";
export { SolverMissingError } from "./exact.js";
export { houseBattery, optimiseRuleOf } from "./house-battery.js";
export { OCTOPUS_API, octopusTariffPrices } from "./octopus-prices.js";
export {
  type BacktestOptions,
  backtestOptionsSchema,
  type CheckedBacktestOptions,
  checkBacktestOptions,
} from "./options.js";
export {
  BACKTEST_PERIODS,
  BACKTEST_POLICIES,
  type BacktestPeriodKind,
  type BacktestPolicy,
  type BacktestResult,
  type BacktestRow,
  backtestPolicySchema,
  backtestResultSchema,
  backtestRowSchema,
} from "./result.js";
export { notReplayed } from "./rules-replay/not-replayed.js";
export { type MeteredHalfHours, meteredHalfHours, pricesOn } from "./store-input.js";
export { backtestTable } from "./table.js";
export { parseTariffSpec, type TariffSpec, tariffSpecSchema } from "./tariff-spec.js";
