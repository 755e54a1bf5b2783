import type { DataType, TypeRule } from "./parse.js";
import { matchesDateFormat } from "./php-date.js";

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** PHP's is_numeric: a finite number, or a string holding one. */
const NUMERIC_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

export function numericValue(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && NUMERIC_TEXT.test(value)) return Number(value);
  return undefined;
}

/** PHP's FILTER_VALIDATE_INT: no fractions and no leading zeros. */
export function isIntegerValue(value: unknown): boolean {
  if (typeof value === "number") return Number.isSafeInteger(value);
  return typeof value === "string" && /^[+-]?(0|[1-9]\d*)$/.test(value);
}

/** true, false, 1 and 0 (as numbers or digits); the strings "true" and "false" are refused. */
export function booleanValue(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === "1") return true;
  if (value === false || value === 0 || value === "0") return false;
  return undefined;
}

function decimalPlaces(value: unknown): number {
  const text = typeof value === "number" ? String(value) : String(value).trim();
  const exponent = /e([+-]?\d+)$/i.exec(text);
  const mantissa = text.replace(/e[+-]?\d+$/i, "");
  const fraction = mantissa.split(".")[1]?.length ?? 0;
  return Math.max(0, fraction - (exponent ? Number(exponent[1]) : 0));
}

/** PHP arrays: a list, or a JSON object (an associative array). */
function listItems(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isPlainObject(value)) return Object.values(value);
  return undefined;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATETIME =
  /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):([0-5]\d)(:[0-5]\d(\.\d+)?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/;

function isIsoDate(text: string): boolean {
  return ISO_DATE.test(text) && matchesDateFormat(text, "Y-m-d");
}

/** One value against a data type, ignoring the list modes. */
export function matchesType(value: unknown, type: DataType, precision?: number): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return isIntegerValue(value);
    case "numeric":
      return numericValue(value) !== undefined;
    case "decimal":
      return numericValue(value) !== undefined && (precision === undefined || decimalPlaces(value) <= precision);
    case "boolean":
      return booleanValue(value) !== undefined;
    case "object":
      // PHP sends an empty map as `[]`, so an empty list counts as an empty object.
      return isPlainObject(value) || (Array.isArray(value) && value.length === 0);
    case "array":
      return listItems(value) !== undefined;
    case "ISO8601-date":
      return typeof value === "string" && isIsoDate(value);
    case "ISO8601-datetime": {
      const match = typeof value === "string" ? ISO_DATETIME.exec(value) : null;
      return match !== null && isIsoDate(match[1] ?? "");
    }
    case "datetime":
      return typeof value === "string" && matchesDateFormat(value, "Y-m-d H:i:s");
  }
}

/** A value against a type rule, list modes included. */
export function matchesTypeRule(value: unknown, rule: TypeRule): boolean {
  if (rule.list === "array") {
    const items = listItems(value);
    return items?.every((item) => matchesType(item, rule.type, rule.precision)) ?? false;
  }
  if (rule.list === "delimited") {
    const text = typeof value === "number" ? String(value) : value;
    if (typeof text !== "string") return false;
    if (text.trim() === "") return true;
    return text.split(",").every((piece) => matchesType(piece.trim(), rule.type, rule.precision));
  }
  return matchesType(value, rule.type, rule.precision);
}

/** The number of items of a list or object, or undefined. */
export function itemCount(value: unknown): number | undefined {
  return listItems(value)?.length;
}
