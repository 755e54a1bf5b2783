import { isTypeRule, type ParsedRule } from "./parse.js";
import { isPlainObject, itemCount, numericValue } from "./values.js";

/** What min, max and between measure: a number's value, a text's length or a list's items. */
export type SizeKind = "number" | "length" | "count";

const NUMBER_TYPES = new Set(["integer", "numeric", "decimal"]);
const TEXT_TYPES = new Set(["string", "ISO8601-date", "ISO8601-datetime", "datetime"]);

/**
 * As Laravel decides it from the other rules, except that a rule list with no type (the
 * inverter settings' lone `between:0,100`) measures a number, never a text's length.
 */
export function sizeKind(parsed: readonly ParsedRule[], value: unknown): SizeKind {
  const types = parsed.filter(isTypeRule);
  if (types.some((rule) => rule.list !== "none" || rule.type === "array" || rule.type === "object")) return "count";
  if (types.some((rule) => NUMBER_TYPES.has(rule.type))) return "number";
  if (types.some((rule) => TEXT_TYPES.has(rule.type))) return "length";
  if (parsed.some((rule) => rule.kind === "alpha" || rule.kind === "hex" || rule.kind === "date_format"))
    return "length";
  if (Array.isArray(value) || isPlainObject(value)) return "count";
  return "number";
}

export function sizeOf(value: unknown, kind: SizeKind): number | undefined {
  switch (kind) {
    case "number":
      return numericValue(value);
    case "length":
      return typeof value === "string" ? Array.from(value).length : undefined;
    case "count":
      return itemCount(value);
  }
}

/** The tightest bounds of a rule list's min, max and between. */
export function sizeBounds(parsed: readonly ParsedRule[]): { min?: number; max?: number } {
  let min: number | undefined;
  let max: number | undefined;
  const raise = (limit: number) => {
    min = min === undefined ? limit : Math.max(min, limit);
  };
  const lower = (limit: number) => {
    max = max === undefined ? limit : Math.min(max, limit);
  };
  for (const rule of parsed) {
    if (rule.kind === "min") raise(rule.limit);
    else if (rule.kind === "max") lower(rule.limit);
    else if (rule.kind === "between") {
      raise(rule.min);
      lower(rule.max);
    }
  }
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}
