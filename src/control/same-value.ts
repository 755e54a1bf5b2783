import { booleanValue, numericValue } from "../validation/index.js";

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** `05:30` and `05:30:00` are the same time; reads may carry seconds, writes do not. */
function timeOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const match = TIME.exec(value.trim());
  if (!match) return undefined;
  return `${(match[1] ?? "").padStart(2, "0")}:${match[2]}:${match[3] ?? "00"}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether a device's value and a requested one are the same, the way the inverter stores them:
 * true = 1 = "1", 20 = "20", "05:30" = "05:30:00".
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "boolean" || typeof b === "boolean") {
    const left = booleanValue(a);
    return left !== undefined && left === booleanValue(b);
  }
  const timeA = timeOf(a);
  const timeB = timeOf(b);
  if (timeA !== undefined || timeB !== undefined) return timeA === timeB;
  const numberA = numericValue(a);
  const numberB = numericValue(b);
  return numberA !== undefined && numberA === numberB;
}

/** Whether `actual` holds everything `expected` says (extra fields in `actual` are fine). */
export function containsValues(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.every((item, index) => containsValues(actual[index], item));
  }
  if (isRecord(expected)) {
    return isRecord(actual) && Object.entries(expected).every(([key, item]) => containsValues(actual[key], item));
  }
  return sameValue(actual, expected);
}

/** Slots as a list filled from slot 1, or keyed by the 1-based slot number: read as the latter. */
export function slotsByNumber(slots: unknown): unknown {
  if (!Array.isArray(slots)) return slots;
  return Object.fromEntries(slots.map((slot, index) => [String(index + 1), slot]));
}
