import { type ParsedRule, parseRules } from "../../validation/index.js";

/** The kind of control a value's validation rules call for. */
export type RuleShape =
  | { readonly component: "switch" }
  | { readonly component: "time" }
  | { readonly component: "select"; readonly values: readonly string[] }
  | { readonly component: "number"; readonly min: number; readonly max: number; readonly step: number }
  | { readonly component: "button"; readonly value: string | number };

const hasType = (parsed: readonly ParsedRule[], type: string): boolean =>
  parsed.some((rule) => rule.kind === "type" && rule.type === type && rule.list === "none");

function bounds(parsed: readonly ParsedRule[]): { min?: number; max?: number } {
  let min: number | undefined;
  let max: number | undefined;
  for (const rule of parsed) {
    const low = rule.kind === "min" ? rule.limit : rule.kind === "between" ? rule.min : undefined;
    const high = rule.kind === "max" ? rule.limit : rule.kind === "between" ? rule.max : undefined;
    if (low !== undefined) min = min === undefined ? low : Math.max(min, low);
    if (high !== undefined) max = max === undefined ? high : Math.min(max, high);
  }
  return { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) };
}

function step(parsed: readonly ParsedRule[]): number {
  // A value the device takes in steps (the LAN's battery power limits: capacity × 10 W) moves by them.
  const multiple = parsed.find((rule) => rule.kind === "multiple_of");
  if (multiple?.kind === "multiple_of") return multiple.step;
  const decimal = parsed.find((rule) => rule.kind === "type" && (rule.type === "decimal" || rule.type === "numeric"));
  if (decimal?.kind !== "type") return 1;
  return decimal.precision === undefined ? 0.1 : 10 ** -decimal.precision;
}

/** A time of day with hours and minutes: `H:i` (or `H:i:s`). */
const isTimeOfDay = (format: string): boolean => /^H:i(:s)?$/.test(format);

/**
 * boolean -> switch, date_format H:i -> time, in -> select, between (or min and max) -> number,
 * a write-only exact value -> button. Anything else (text, lists, objects) gets no control.
 */
export function ruleShape(rules: readonly string[]): RuleShape | undefined {
  const parsed = parseRules(rules);
  if (hasType(parsed, "boolean")) return { component: "switch" };
  const format = parsed.find((rule) => rule.kind === "date_format");
  if (format?.kind === "date_format") return format.formats.some(isTimeOfDay) ? { component: "time" } : undefined;
  const choice = parsed.find((rule) => rule.kind === "in");
  if (choice?.kind === "in") return { component: "select", values: choice.values };
  const exact = parsed.find((rule) => rule.kind === "exact");
  if (exact?.kind === "exact") {
    if (!parsed.some((rule) => rule.kind === "writeonly")) return undefined;
    const number = Number(exact.value);
    return { component: "button", value: exact.value !== "" && Number.isFinite(number) ? number : exact.value };
  }
  if (
    parsed.some(
      (rule) => rule.kind === "type" && rule.type !== "integer" && rule.type !== "decimal" && rule.type !== "numeric",
    )
  ) {
    return undefined;
  }
  const { min, max } = bounds(parsed);
  if (min === undefined || max === undefined) return undefined;
  return { component: "number", min, max, step: step(parsed) };
}

/** An option's text as the value to send: a whole number as a number (setting values are numbers). */
export function optionValue(text: string): string | number {
  return /^-?\d+$/.test(text) ? Number(text) : text;
}
