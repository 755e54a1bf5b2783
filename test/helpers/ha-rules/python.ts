/**
 * The bits of Python that Home Assistant's handling of a rendered state depends on: how Jinja
 * prints a JSON value (Python's str()), float(), str.isnumeric() and dt_util.parse_datetime().
 */

export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

/** Python's repr() of a float: shortest round-trip digits, scientific below 1e-4 and from 1e16. */
export function pythonFloatRepr(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const sign = n < 0 ? "-" : "";
  const [mantissa = "", exponentText = "0"] = Math.abs(n).toExponential().split("e");
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    return `${sign}${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  const digits = mantissa.replace(".", "");
  if (exponent >= 0) {
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
    return `${sign}${whole}.${digits.slice(exponent + 1) || "0"}`;
  }
  return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
}

/**
 * A JSON number as Python holds it after json.loads: JSON.stringify writes whole numbers below
 * 1e21 without a point or exponent, which Python reads as int; everything else is a float.
 */
function pythonNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e21 ? BigInt(n).toString() : pythonFloatRepr(n);
}

function pythonStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replaceAll("\\", "\\\\").replaceAll("\n", "\\n").replaceAll(quote, `\\${quote}`);
  return `${quote}${body}${quote}`;
}

function pythonRepr(value: Json): string {
  if (typeof value === "string") return pythonStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonStringRepr(k)}: ${pythonRepr(v)}`)
      .join(", ")}}`;
  }
  return pythonStr(value);
}

/** What `{{ x }}` prints for a JSON value x: Python's str(). */
export function pythonStr(value: Json): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return pythonNumber(value);
  if (typeof value === "string") return value;
  return pythonRepr(value);
}

const DIGITS = String.raw`\d(?:_?\d)*`;
const FLOAT_TEXT = new RegExp(
  String.raw`^[+-]?(?:(?:${DIGITS})(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`,
);
const SPECIAL_FLOAT = /^[+-]?(?:inf|infinity|nan)$/i;

/** Python's float(text), or undefined where it raises ValueError. */
export function pythonFloat(text: string): number | undefined {
  const trimmed = text.trim();
  if (SPECIAL_FLOAT.test(trimmed)) {
    const lower = trimmed.toLowerCase();
    if (lower.includes("nan")) return Number.NaN;
    return lower.startsWith("-") ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!FLOAT_TEXT.test(trimmed)) return undefined;
  return Number(trimmed.replaceAll("_", ""));
}

/** Python's str.isnumeric(): non-empty, every character numeric. */
export function pythonIsNumeric(text: string): boolean {
  return /^\p{N}+$/u.test(text);
}

const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * homeassistant/util/dt.py parse_datetime (ciso8601 first, then DATETIME_RE) on the forms a
 * daemon would send: an ISO 8601 date or date-time. Undefined where it returns None or raises.
 */
export function parseHaDatetime(
  text: string,
): { readonly hasTimezone: boolean; readonly dateOnly: boolean } | undefined {
  const match = ISO_DATETIME.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) return undefined;
  if (hour !== undefined && (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59)) return undefined;
  return { hasTimezone: match[7] !== undefined, dateOnly: hour === undefined };
}

/** A time of day as dateutil's parser reads what a daemon sends: `HH:MM` or `HH:MM:SS[.ffffff]`. */
export function parseTimeOfDay(text: string): boolean {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?$/.exec(text.trim());
  if (!match) return false;
  return Number(match[1]) <= 23 && Number(match[2]) <= 59 && Number(match[3] ?? 0) <= 59;
}
