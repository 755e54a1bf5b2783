/**
 * The interpreter of the service's dynamic validation rules (api-reference, "Dynamic
 * validation"), shared by the simulator (422 answers, code -4) and the daemon's control gate
 * (refusing a bad value before it is sent). Messages say what is allowed in plain words.
 */
export { type CheckResult, checkValue, unknownRules } from "./validation-rules/check.js";
export { describeRules } from "./validation-rules/describe.js";
export { checkFields } from "./validation-rules/fields.js";
export {
  type DataType,
  type ParsedRule,
  parseRule,
  parseRules,
  splitRuleList,
  type TypeRule,
} from "./validation-rules/parse.js";
export { formatHint, matchesDateFormat } from "./validation-rules/php-date.js";
export { booleanValue, numericValue } from "./validation-rules/values.js";
