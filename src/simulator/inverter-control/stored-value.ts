import { booleanValue, numericValue, type ParsedRule, parseRules } from "../../cloud/index.js";

export type SettingValue = boolean | number | string;

const NUMBER_TYPES = new Set(["integer", "numeric", "decimal"]);

function holdsNumber(parsed: readonly ParsedRule[]): boolean {
  return parsed.some(
    (rule) =>
      rule.kind === "between" ||
      rule.kind === "min" ||
      rule.kind === "max" ||
      (rule.kind === "type" && rule.list === "none" && NUMBER_TYPES.has(rule.type)) ||
      (rule.kind === "in" && rule.values.every((value) => numericValue(value) !== undefined)) ||
      (rule.kind === "exact" && numericValue(rule.value) !== undefined),
  );
}

/**
 * The value a setting holds after accepting `value` (already checked against its rules), or
 * undefined if it cannot hold it. Booleans written as 1/0 are held as true/false, numbers sent as
 * text as numbers; the inverter's registers are whole numbers, so unless the rules ask for a
 * decimal the number is rounded, and the write answers with the value the inverter kept.
 */
export function storedValue(rules: readonly string[], value: unknown): SettingValue | undefined {
  const parsed = parseRules(rules);
  if (parsed.some((rule) => rule.kind === "type" && rule.type === "boolean" && rule.list === "none")) {
    return booleanValue(value);
  }
  if (parsed.some((rule) => rule.kind === "date_format")) return typeof value === "string" ? value : undefined;
  if (holdsNumber(parsed)) {
    const number = numericValue(value);
    if (number === undefined) return undefined;
    const fractional = parsed.some(
      (rule) => rule.kind === "type" && (rule.type === "decimal" || rule.type === "numeric"),
    );
    return fractional ? number : Math.round(number);
  }
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : undefined;
}
