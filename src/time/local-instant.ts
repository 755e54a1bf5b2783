import { DAY_MS, MINUTE_MS } from "./units.js";
import { offsetMs } from "./zone-offset.js";

/**
 * From a local date and time to the instant, under one policy for the whole daemon and the
 * simulator (Temporal's "compatible" disambiguation):
 * - a time the clocks skip (spring forward) is read with the offset in force before the gap, so
 *   it lands as far after the jump as it was asked after the last valid minute: London
 *   2026-03-29 01:30 is 01:30Z (02:30 BST);
 * - a time the clocks repeat (fall back) is its first occurrence: London 2026-10-25 01:30 is
 *   00:30Z (01:30 BST), not 01:30Z (01:30 GMT).
 * "Wall ms" below is the local time written as if it were UTC: Date.UTC of its fields.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** Every instant at which the local clock shows `wall`, earliest first: none in a gap, two in a fold. */
export function wallOccurrences(wall: number, timeZone: string): number[] {
  const before = offsetMs(wall - DAY_MS, timeZone);
  const after = offsetMs(wall + DAY_MS, timeZone);
  const found = new Set<number>();
  for (const offset of [before, after]) {
    const candidate = wall - offset;
    if (offsetMs(candidate, timeZone) === offset) found.add(candidate);
  }
  return [...found].sort((a, b) => a - b);
}

/** The instant of a wall time under the policy above; the simulator asks often, so nothing is allocated. */
export function instantOfWall(wall: number, timeZone: string): number {
  const before = offsetMs(wall - DAY_MS, timeZone);
  const after = offsetMs(wall + DAY_MS, timeZone);
  const early = wall - before;
  const late = wall - after;
  const earlyValid = offsetMs(early, timeZone) === before;
  const lateValid = offsetMs(late, timeZone) === after;
  if (earlyValid && lateValid) return Math.min(early, late);
  if (lateValid) return late;
  // Valid before the change, or in the gap: the offset in force before it.
  return early;
}

/**
 * Days since 1970-01-01 of a date written `YYYY-MM-DD`; throws a RangeError when it is not written
 * so. Day and month are not checked (2025-01-32 is 2025-02-01): use isDay to validate input.
 */
export function dayNumber(date: string): number {
  const match = DATE.exec(date);
  if (!match) throw new RangeError(`not a date: ${date}`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS;
}

/**
 * Minutes of day of `HH:mm` or `HH:mm:ss` (fractions of a second ignored), or undefined when
 * malformed or past 23:59:59.
 */
export function clockMinutes(time: string): number | undefined {
  const match = TIME.exec(time.trim());
  if (!match) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = match[3] === undefined ? 0 : Number(match[3]);
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  return hours * 60 + minutes + seconds / 60;
}

/** The instant of a local `YYYY-MM-DD` and `HH:mm[:ss]`; throws a RangeError when either is malformed. */
export function utcMsOfLocal(date: string, time: string, timeZone: string): number {
  const minutes = clockMinutes(time);
  if (minutes === undefined) throw new RangeError(`not a time: ${time}`);
  return instantOfWall(dayNumber(date) * DAY_MS + Math.round(minutes * MINUTE_MS), timeZone);
}

/** The instant of a local date (month 1 to 12) and minutes since midnight. */
export function localToUtc(year: number, month: number, day: number, minutes: number, timeZone: string): number {
  return instantOfWall(Date.UTC(year, month - 1, day) + minutes * MINUTE_MS, timeZone);
}

/** A local `YYYY-MM-DD`, `YYYY-MM-DD hh:mm[:ss]` or `YYYY-MM-DDThh:mm[:ss]` as an instant; throws when malformed. */
export function localDateTimeToMs(text: string, timeZone: string): number {
  const trimmed = text.trim();
  const split = trimmed.search(/[T ]/);
  if (split < 0) return utcMsOfLocal(trimmed, "00:00", timeZone);
  return utcMsOfLocal(trimmed.slice(0, split), trimmed.slice(split + 1), timeZone);
}

/**
 * Every instant a local datetime names, earliest first: two in the hour the clocks go back, and
 * in a skipped hour the one instant the policy gives. Empty when the text is not a datetime.
 */
export function localCandidates(text: string, timeZone: string): number[] {
  let wall: number;
  try {
    wall = localDateTimeToMs(text, "UTC");
  } catch {
    return [];
  }
  const found = wallOccurrences(wall, timeZone);
  return found.length > 0 ? found : [instantOfWall(wall, timeZone)];
}
