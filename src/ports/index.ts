export type {
  CheapWindow,
  GridCounters,
  Prices,
  RuleActionResult,
  RuleEvent,
  RuleLastRun,
  RuleRunResult,
  RuleStatus,
  RulesRuntime,
  TodayCost,
} from "./rules.js";
