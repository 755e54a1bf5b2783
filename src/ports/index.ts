export type {
  CheapWindow,
  GridCounters,
  PlannedHalfHour,
  Prices,
  RuleActionResult,
  RuleEvent,
  RuleLastRun,
  RuleRunResult,
  RuleStatus,
  RulesRuntime,
  TodayCost,
} from "./rules.js";
