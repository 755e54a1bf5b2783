/**
 * The interpreter of the service's dynamic validation rules (api-reference, "Dynamic
 * validation"), shared by the simulator (422 answers, code -4) and the daemon's control gate
 * (refusing a bad value before it is sent), whichever path carries the change: the one rule
 * language of the daemon's controls, the LAN's register ranges written in it too. Messages say
 * what is allowed in plain words.
 */
export { type CheckResult, checkValue, unknownRules } from "./check.js";
export { describeRules } from "./describe.js";
export { checkFields } from "./fields.js";
export {
  type DataType,
  type ParsedRule,
  parseRule,
  parseRules,
  splitRuleList,
  type TypeRule,
} from "./parse.js";
export { formatHint, matchesDateFormat } from "./php-date.js";
export { booleanValue, numericValue } from "./values.js";
