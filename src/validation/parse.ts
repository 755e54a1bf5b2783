/**
 * Rule strings of the service's dynamic validation (api-reference, "Dynamic validation") read
 * into a typed form. Anything that cannot be read becomes an `unknown` rule, never an error.
 */

export type DataType =
  | "ISO8601-date"
  | "ISO8601-datetime"
  | "datetime"
  | "string"
  | "integer"
  | "decimal"
  | "numeric"
  | "boolean"
  | "object"
  | "array";

export interface TypeRule {
  readonly kind: "type";
  readonly type: DataType;
  /** `decimal,2`: at most that many decimal places. */
  readonly precision?: number;
  /** `integer[]` is a list of that type; `integer,delimited` a comma-separated string of it. */
  readonly list: "none" | "array" | "delimited";
  readonly text: string;
}

export type ParsedRule =
  | { readonly kind: "required" | "optional" | "nullable" | "writeonly"; readonly text: string }
  | { readonly kind: "min" | "max"; readonly limit: number; readonly text: string }
  | { readonly kind: "between"; readonly min: number; readonly max: number; readonly text: string }
  | { readonly kind: "alpha" | "hex"; readonly length: number; readonly text: string }
  | { readonly kind: "bitwise"; readonly bits: number; readonly text: string }
  | { readonly kind: "multiple_of"; readonly step: number; readonly text: string }
  | { readonly kind: "in"; readonly values: readonly string[]; readonly text: string }
  | { readonly kind: "exact"; readonly value: string; readonly text: string }
  | { readonly kind: "date_format"; readonly formats: readonly string[]; readonly text: string }
  | {
      readonly kind: "property";
      readonly property: string;
      readonly rules: readonly ParsedRule[];
      readonly text: string;
    }
  | TypeRule
  | { readonly kind: "unknown"; readonly text: string };

const TYPES: Readonly<Record<string, DataType>> = {
  "iso8601-date": "ISO8601-date",
  "iso8601-datetime": "ISO8601-datetime",
  datetime: "datetime",
  string: "string",
  integer: "integer",
  decimal: "decimal",
  numeric: "numeric",
  boolean: "boolean",
  object: "object",
  array: "array",
};

const MARKERS = new Set(["required", "optional", "nullable", "writeonly"]);
const WITH_ARGUMENTS = new Set([
  "min",
  "max",
  "between",
  "alpha",
  "hex",
  "bitwise",
  "multiple_of",
  "in",
  "exact",
  "date_format",
  "property",
]);

/** The rule name a piece of text starts with, lower-cased, or undefined when it names no known rule. */
function knownRuleName(text: string): string | undefined {
  const head = /^[^:,]*/.exec(text.trim())?.[0] ?? "";
  const name = head.replace(/\[\]$/, "").toLowerCase();
  return MARKERS.has(name) || WITH_ARGUMENTS.has(name) || name in TYPES ? name : undefined;
}

/**
 * Splits a comma-joined rule list such as `numeric,between:0,100`: a piece that does not start
 * with a known rule name belongs to the rule before it (`100` to `between:0`, `2` to `decimal`).
 */
export function splitRuleList(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(",")) {
    const last = out.length - 1;
    if (last < 0 || knownRuleName(piece) !== undefined) out.push(piece);
    else out[last] = `${out[last]},${piece}`;
  }
  return out.map((rule) => rule.trim()).filter((rule) => rule !== "");
}

function finite(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}

function wholePositive(text: string): number | undefined {
  const number = finite(text);
  return number !== undefined && Number.isInteger(number) && number > 0 ? number : undefined;
}

function parseType(text: string, name: string, args: readonly string[]): ParsedRule {
  const type = TYPES[name.replace(/\[\]$/, "")];
  if (type === undefined) return { kind: "unknown", text };
  let list: TypeRule["list"] = name.endsWith("[]") ? "array" : "none";
  let precision: number | undefined;
  for (const arg of args) {
    const trimmed = arg.trim().toLowerCase();
    if (trimmed === "delimited" && list === "none") list = "delimited";
    else if (type === "decimal" && precision === undefined && finite(trimmed) !== undefined) {
      const places = finite(trimmed) ?? 0;
      if (!Number.isInteger(places) || places < 0) return { kind: "unknown", text };
      precision = places;
    } else return { kind: "unknown", text };
  }
  return precision === undefined ? { kind: "type", type, list, text } : { kind: "type", type, list, precision, text };
}

function parseWithArguments(text: string, name: string, rest: string): ParsedRule {
  const unknown: ParsedRule = { kind: "unknown", text };
  switch (name) {
    case "min":
    case "max": {
      const limit = finite(rest);
      return limit === undefined ? unknown : { kind: name, limit, text };
    }
    case "between": {
      const [low, high, ...extra] = rest.split(",");
      const min = finite(low ?? "");
      const max = finite(high ?? "");
      return min === undefined || max === undefined || extra.length > 0 ? unknown : { kind: "between", min, max, text };
    }
    case "alpha":
    case "hex": {
      const length = wholePositive(rest);
      return length === undefined ? unknown : { kind: name, length, text };
    }
    case "bitwise": {
      const bits = wholePositive(rest);
      return bits === undefined ? unknown : { kind: "bitwise", bits, text };
    }
    case "multiple_of": {
      const step = finite(rest);
      return step === undefined || step <= 0 ? unknown : { kind: "multiple_of", step, text };
    }
    case "in":
      return { kind: "in", values: rest.split(",").map((value) => value.trim()), text };
    case "exact":
      return { kind: "exact", value: rest.trim(), text };
    case "date_format": {
      const formats = rest.split(",").filter((format) => format !== "");
      return formats.length === 0 ? unknown : { kind: "date_format", formats, text };
    }
    case "property": {
      const colon = rest.indexOf(":");
      const property = colon < 0 ? "" : rest.slice(0, colon).trim();
      if (property === "") return unknown;
      return { kind: "property", property, rules: splitRuleList(rest.slice(colon + 1)).map(parseRule), text };
    }
    default:
      return unknown;
  }
}

/** One rule, e.g. `between:0,100`, `decimal,2`, `integer[]` or `property:start_time:date_format:H:i`. */
export function parseRule(rule: string): ParsedRule {
  const text = rule.trim();
  const head = /^[^:,]*/.exec(text)?.[0] ?? "";
  const name = head.toLowerCase();
  const separator = text.charAt(head.length);
  const rest = text.slice(head.length + 1);
  if (MARKERS.has(name)) {
    return separator === ""
      ? { kind: name as "required" | "optional" | "nullable" | "writeonly", text }
      : { kind: "unknown", text };
  }
  if (WITH_ARGUMENTS.has(name)) {
    return separator === ":" ? parseWithArguments(text, name, rest) : { kind: "unknown", text };
  }
  // Types take their arguments after a comma (`decimal,2`), or after a colon in Laravel's style.
  return parseType(text, name, separator === "" ? [] : rest.split(","));
}

/** Each element of the list is one rule, as the service sends them. */
export function parseRules(rules: readonly string[]): ParsedRule[] {
  return rules.filter((rule) => rule.trim() !== "").map(parseRule);
}

/** The texts of the rules (nested property rules included) this interpreter does not know. */
export function unknownRulesOf(parsed: readonly ParsedRule[]): string[] {
  const out: string[] = [];
  for (const rule of parsed) {
    if (rule.kind === "unknown") out.push(rule.text);
    else if (rule.kind === "property") out.push(...unknownRulesOf(rule.rules));
  }
  return out;
}

export function isTypeRule(rule: ParsedRule): rule is TypeRule {
  return rule.kind === "type";
}
