import { isPlainObjectValue } from "./values.js";

/**
 * `slots` as sent: a list filled from slot 1, or an object keyed by the 1-based slot number.
 * Returns [slot number, slot] pairs; entries that are not objects are left to validation.
 */
export function slotEntries(raw: unknown): [number, Readonly<Record<string, unknown>>][] {
  const pairs: [number, unknown][] = Array.isArray(raw)
    ? raw.map((slot, index) => [index + 1, slot])
    : isPlainObjectValue(raw)
      ? Object.entries(raw).map(([key, slot]) => [Number(key), slot])
      : [];
  return pairs.flatMap(([number, slot]) => (isPlainObjectValue(slot) ? [[number, slot]] : []));
}

/** Slot numbers outside 1..count, which the rule language cannot express. */
export function slotKeyErrors(raw: unknown, count: number): Record<string, string[]> {
  if (Array.isArray(raw) || !isPlainObjectValue(raw)) return {};
  const bad = Object.keys(raw).filter((key) => !/^\d+$/.test(key) || Number(key) < 1 || Number(key) > count);
  return bad.length === 0
    ? {}
    : { slots: [`slots must be keyed by slot numbers from 1 to ${count}; ${bad.join(", ")} is not one`] };
}
