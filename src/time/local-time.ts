import { localToUtc } from "./local-instant.js";
import { HOUR_MS, SLOT_MS } from "./units.js";
import { wallClock } from "./wall-fields.js";

/**
 * Wall-clock times the tariff rules write ("07:00", "24:00"): tariff hours, deadlines and zone
 * days are local; the planner works in epoch milliseconds. The names re-exported below are the
 * ones the rules import from this file.
 */

export { localDay } from "./local-days.js";
export { localToUtc } from "./local-instant.js";
export { HOUR_MS, MINUTE_MS, SLOT_MS } from "./units.js";
export { localClockText, localDateTimeText, type WallClock, wallClock } from "./wall-fields.js";
export { isTimeZone } from "./zone-offset.js";

/** "07:30" as minutes since midnight; "24:00" is 1440 (the end of a day). */
export function parseClock(text: string): number {
  const [hours, minutes] = text.split(":").map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** The first instant after `now` at which the local clock reads `clock` ("HH:MM"): today or tomorrow. */
export function nextLocalTime(now: number, clock: string, timeZone: string): number {
  const wall = wallClock(now, timeZone);
  const minutes = parseClock(clock);
  for (let add = 0; add < 3; add++) {
    const at = localToUtc(wall.year, wall.month, wall.day + add, minutes, timeZone);
    if (at > now) return at;
  }
  return now + 24 * HOUR_MS;
}

/** Half-hour boundaries from `from` (rounded down) until `to`. UK half-hours are UTC half-hours. */
export function halfHourStarts(from: number, to: number): number[] {
  const starts: number[] = [];
  for (let at = Math.floor(from / SLOT_MS) * SLOT_MS; at < to; at += SLOT_MS) starts.push(at);
  return starts;
}
