export type {
  CheapWindow,
  Prices,
  RuleActionResult,
  RuleEvent,
  RuleLastRun,
  RuleRunResult,
  RuleStatus,
  RulesRuntime,
} from "./rules.js";
