import { describeBitwise, describeFormats, describeParsed } from "./describe.js";
import { isTypeRule, type ParsedRule, parseRules, unknownRulesOf } from "./parse.js";
import { matchesDateFormat } from "./php-date.js";
import { type SizeKind, sizeKind, sizeOf } from "./size.js";
import { isPlainObject, matchesTypeRule, numericValue } from "./values.js";

export interface CheckResult {
  readonly ok: boolean;
  /** Plain-words problems such as `must be between 4 and 100`; empty when ok. */
  readonly problems: string[];
  /** Rules this interpreter does not know; they count as satisfied. */
  readonly unknownRules: string[];
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? "" : "s"}`;

function sizeProblem(kind: SizeKind, min: number | undefined, max: number | undefined): string {
  const range = min !== undefined && max !== undefined;
  switch (kind) {
    case "number":
      return range
        ? `must be between ${min} and ${max}`
        : min !== undefined
          ? `must be at least ${min}`
          : `must be at most ${max}`;
    case "length":
      return range
        ? `must be between ${min} and ${max} characters long`
        : min !== undefined
          ? `must be at least ${plural(min, "character")} long`
          : `must be at most ${plural(max ?? 0, "character")} long`;
    case "count":
      return range
        ? `must have between ${min} and ${max} items`
        : min !== undefined
          ? `must have at least ${plural(min, "item")}`
          : `must have at most ${plural(max ?? 0, "item")}`;
  }
}

/** PHP compares `in` and `exact` values as text; booleans only ever pass the boolean type. */
function asText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

function bitwiseOk(value: unknown, bits: number): boolean {
  const text = asText(value);
  if (text === undefined) return false;
  if (text.trim() === "") return true;
  return text.split(",").every((piece) => {
    const trimmed = piece.trim();
    return /^\d+$/.test(trimmed) && Number(trimmed) >= 1 && Number(trimmed) <= bits;
  });
}

function exactOk(value: unknown, expected: string): boolean {
  const text = asText(value);
  if (text === undefined) return false;
  if (text === expected) return true;
  const number = numericValue(text);
  const wanted = numericValue(expected);
  return number !== undefined && wanted !== undefined && number === wanted;
}

const isEmpty = (value: unknown): boolean =>
  value === null ||
  (typeof value === "string" && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0) ||
  (isPlainObject(value) && Object.keys(value).length === 0);

/** The problems one rule finds with a present value; markers and types are handled by the caller. */
function ruleProblem(rule: ParsedRule, value: unknown, parsed: readonly ParsedRule[]): string[] {
  switch (rule.kind) {
    case "min":
    case "max":
    case "between": {
      const kind = sizeKind(parsed, value);
      const size = sizeOf(value, kind);
      const min = rule.kind === "min" ? rule.limit : rule.kind === "between" ? rule.min : undefined;
      const max = rule.kind === "max" ? rule.limit : rule.kind === "between" ? rule.max : undefined;
      const fits = size !== undefined && (min === undefined || size >= min) && (max === undefined || size <= max);
      return fits ? [] : [sizeProblem(kind, min, max)];
    }
    case "multiple_of": {
      const number = numericValue(value);
      return number !== undefined && Number.isInteger(number / rule.step) ? [] : [`must be a multiple of ${rule.step}`];
    }
    case "alpha":
      return typeof value === "string" &&
        /^[\p{L}\p{M}\p{N}]+$/u.test(value) &&
        Array.from(value).length === rule.length
        ? []
        : [`must be exactly ${plural(rule.length, "letter")} or digits`];
    case "hex":
      return typeof value === "string" && new RegExp(`^[0-9a-fA-F]{${rule.length}}$`).test(value)
        ? []
        : [`must be exactly ${plural(rule.length, "hexadecimal digit")} (0-9, A-F)`];
    case "bitwise":
      return bitwiseOk(value, rule.bits) ? [] : [`must be ${describeBitwise(rule.bits)}`];
    case "in": {
      const text = asText(value);
      return text !== undefined && rule.values.includes(text) ? [] : [`must be one of ${rule.values.join(", ")}`];
    }
    case "exact":
      return exactOk(value, rule.value) ? [] : [`must be exactly ${rule.value}`];
    case "date_format":
      return typeof value === "string" && rule.formats.some((format) => matchesDateFormat(value, format))
        ? []
        : [`must be ${describeFormats(rule.formats)}`];
    case "property": {
      if (!isPlainObject(value)) return [`must be an object with ${rule.property}`];
      return checkParsed(value[rule.property], rule.rules).problems.map((problem) => `${rule.property} ${problem}`);
    }
    default:
      return [];
  }
}

/** Checks a value against already parsed rules; `undefined` is an absent value. */
export function checkParsed(value: unknown, parsed: readonly ParsedRule[]): CheckResult {
  const unknownRules = unknownRulesOf(parsed);
  const has = (kind: ParsedRule["kind"]): boolean => parsed.some((rule) => rule.kind === kind);
  const result = (problems: string[]): CheckResult => ({ ok: problems.length === 0, problems, unknownRules });
  const required = has("required");
  if (value === undefined) return result(required ? ["is required"] : []);
  if (required && isEmpty(value)) return result(["is required"]);
  // "optional" reads as Laravel's `nullable|sometimes`: an explicit null counts as absent.
  if (value === null && (has("nullable") || has("optional"))) return result([]);

  // A value of the wrong type gets the whole description: `must be a whole number between 0 and 4`.
  if (parsed.filter(isTypeRule).some((rule) => !matchesTypeRule(value, rule))) {
    return result([
      `must be ${describeParsed(parsed.filter((rule) => rule.kind !== "nullable" && rule.kind !== "writeonly"))}`,
    ]);
  }

  const problems: string[] = [];
  for (const rule of parsed) problems.push(...ruleProblem(rule, value, parsed));
  return result(problems);
}

/**
 * Checks one value, e.g. a setting's, against rule strings. `undefined` is an absent value.
 * Booleans pass only the boolean type: `in:0,1` refuses `true`.
 */
export function checkValue(value: unknown, rules: readonly string[]): CheckResult {
  return checkParsed(value, parseRules(rules));
}

/** The rules of a list that this interpreter does not know, for callers to log. */
export function unknownRules(rules: readonly string[]): string[] {
  return unknownRulesOf(parseRules(rules));
}
