import { isDay } from "./local-days.js";
import { localCandidates } from "./local-instant.js";
import { SECOND_MS } from "./units.js";

/**
 * Timestamps as the cloud service writes them. The API reference: timestamps are ISO 8601 UTC
 * unless marked "local datetime" (`YYYY-MM-DD hh:mm:ss`, energy flows and older charger meter
 * records), which is the system's or user's local time. So a zoneless time is read on the
 * account's wall clock, never as UTC, and a bare date is that local day's start.
 */

const ZONED = /([zZ]|[+-]\d{2}:?\d{2})$/;

/** `YYYY-MM-DDThh:mm:ssZ`: the service refuses fractions of a second in query datetimes. */
export function isoSeconds(ms: number): string {
  return `${new Date(Math.floor(ms / SECOND_MS) * SECOND_MS).toISOString().slice(0, 19)}Z`;
}

/** Every instant a service timestamp may name, earliest first: two for a local time in the repeated hour. */
export function timestampCandidates(text: string, timeZone: string): number[] {
  const trimmed = text.trim();
  if (ZONED.test(trimmed)) {
    const ms = Date.parse(trimmed);
    return Number.isNaN(ms) ? [] : [ms];
  }
  if (!isDay(trimmed.slice(0, 10))) return [];
  if (trimmed.length === 10) return localCandidates(trimmed, timeZone).slice(0, 1);
  return localCandidates(trimmed, timeZone);
}

/** Epoch ms of a service timestamp, or NaN; a local time in the repeated hour is its first occurrence. */
export function timestampMs(text: string, timeZone: string): number {
  return timestampCandidates(text, timeZone)[0] ?? Number.NaN;
}

/** The item with the latest timestamp; ties keep the first. */
export function newest<T>(items: Iterable<T>, timeOf: (item: T) => string, timeZone: string): T | undefined {
  let best: T | undefined;
  let bestMs = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    const ms = timestampMs(timeOf(item), timeZone);
    if (best === undefined || ms > bestMs) {
      best = item;
      bestMs = ms;
    }
  }
  return best;
}

const ZONED_DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * An ISO 8601 moment (a timestamp sensor's state), or null: a local datetime carries no zone, and
 * Home Assistant refuses a timestamp without one.
 */
export function zonedTimestamp(value: unknown): string | null {
  if (typeof value !== "string" || !ZONED_DATETIME.test(value)) return null;
  const ms = Date.parse(value.replace(" ", "T"));
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().replace(/\.000Z$/, "Z");
}
