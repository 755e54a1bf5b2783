export type {
  CheapWindow,
  GridCounters,
  PeriodSavings,
  Prices,
  RuleActionResult,
  RuleEvent,
  RuleLastRun,
  RuleRunResult,
  RuleStatus,
  RulesRuntime,
  SavingsSummary,
  TodayCost,
} from "./rules.js";
