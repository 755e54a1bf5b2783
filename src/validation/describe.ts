import { type DataType, isTypeRule, type ParsedRule, parseRules, type TypeRule } from "./parse.js";
import { describeDateFormat } from "./php-date.js";
import { sizeBounds, sizeKind } from "./size.js";

const SINGULAR: Readonly<Record<DataType, string>> = {
  "ISO8601-date": "a date as YYYY-MM-DD",
  "ISO8601-datetime": "a date and time as YYYY-MM-DDThh:mm:ssZ",
  datetime: "a date and time as YYYY-MM-DD hh:mm:ss",
  string: "text",
  integer: "a whole number",
  decimal: "a number",
  numeric: "a number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
};

const PLURAL: Readonly<Record<DataType, string>> = {
  "ISO8601-date": "dates as YYYY-MM-DD",
  "ISO8601-datetime": "dates and times as YYYY-MM-DDThh:mm:ssZ",
  datetime: "dates and times as YYYY-MM-DD hh:mm:ss",
  string: "text values",
  integer: "whole numbers",
  decimal: "numbers",
  numeric: "numbers",
  boolean: "true/false values",
  object: "objects",
  array: "lists",
};

const places = (precision: number | undefined): string =>
  precision === undefined ? "" : ` with at most ${precision} decimal place${precision === 1 ? "" : "s"}`;

/** `a whole number`, `a list of whole numbers`, `a comma-separated list of whole numbers`. */
export function typeNoun(rule: TypeRule): string {
  if (rule.list === "array") return `a list of ${PLURAL[rule.type]}${places(rule.precision)}`;
  if (rule.list === "delimited") return `a comma-separated list of ${PLURAL[rule.type]}${places(rule.precision)}`;
  return `${SINGULAR[rule.type]}${places(rule.precision)}`;
}

/** `a time as HH:mm`, or `a time as HH:mm or HH:mm:ss` for several formats. */
export function describeFormats(formats: readonly string[]): string {
  const groups: { what: string; hints: string[] }[] = [];
  for (const format of formats) {
    const text = describeDateFormat(format);
    const at = text.indexOf(" as ");
    const what = text.slice(0, at);
    const hint = text.slice(at + 4);
    const last = groups.at(-1);
    if (last && last.what === what) last.hints.push(hint);
    else groups.push({ what, hints: [hint] });
  }
  return groups.map((group) => `${group.what} as ${group.hints.join(" or ")}`).join(" or ");
}

export function describeBitwise(bits: number): string {
  return `empty, or a comma-separated list of numbers from 1 to ${bits}`;
}

function sizeSuffix(parsed: readonly ParsedRule[]): string {
  const { min, max } = sizeBounds(parsed);
  if (min === undefined && max === undefined) return "";
  switch (sizeKind(parsed, undefined)) {
    case "number":
      if (min !== undefined && max !== undefined) return ` between ${min} and ${max}`;
      return min !== undefined ? ` of at least ${min}` : ` of at most ${max}`;
    case "length":
      if (min !== undefined && max !== undefined) return ` of ${min} to ${max} characters`;
      return min !== undefined ? ` of at least ${min} characters` : ` of at most ${max} characters`;
    case "count":
      if (min !== undefined && max !== undefined) return ` with ${min} to ${max} items`;
      return min !== undefined ? ` with at least ${min} item${min === 1 ? "" : "s"}` : ` with at most ${max} items`;
  }
}

/** The main noun of a rule list, and whether min/max/between still need saying after it. */
function core(parsed: readonly ParsedRule[]): { text: string; sized: boolean } {
  for (const rule of parsed) {
    switch (rule.kind) {
      case "exact":
        return { text: `exactly ${rule.value}`, sized: false };
      case "in":
        return { text: `one of ${rule.values.join(", ")}`, sized: false };
      case "bitwise":
        return { text: describeBitwise(rule.bits), sized: false };
      case "alpha":
        return { text: `${rule.length} letters or digits`, sized: false };
      case "hex":
        return { text: `${rule.length} hexadecimal digits`, sized: false };
      case "date_format":
        return { text: describeFormats(rule.formats), sized: true };
    }
  }
  const type = parsed.find(isTypeRule);
  if (type) return { text: typeNoun(type), sized: true };
  if (parsed.some((rule) => rule.kind === "property")) return { text: "an object", sized: true };
  if (parsed.some((rule) => rule.kind === "min" || rule.kind === "max" || rule.kind === "between")) {
    return { text: "a number", sized: true };
  }
  return { text: "any value", sized: false };
}

export function describeParsed(parsed: readonly ParsedRule[]): string {
  const main = core(parsed);
  let text = main.sized ? `${main.text}${sizeSuffix(parsed)}` : main.text;
  const properties = parsed.flatMap((rule) => (rule.kind === "property" ? [rule] : []));
  if (properties.length > 0) {
    text += ` whose ${properties.map((rule) => `${rule.property} is ${describeParsed(rule.rules)}`).join(" and whose ")}`;
  }
  if (parsed.some((rule) => rule.kind === "nullable")) text += ", or null";
  if (parsed.some((rule) => rule.kind === "writeonly")) text += " (write-only)";
  return text;
}

/**
 * What the rules allow, in plain words for error messages and Home Assistant hints:
 * `["integer", "between:4,100"]` → `a whole number between 4 and 100`.
 */
export function describeRules(rules: readonly string[]): string {
  return describeParsed(parseRules(rules));
}
