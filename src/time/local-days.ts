import { dayNumber, instantOfWall } from "./local-instant.js";
import { DAY_MS } from "./units.js";
import { wallDate } from "./zone-offset.js";

/** Local calendar days (`YYYY-MM-DD`) in an IANA zone, and the instants where they start. */

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const pad2 = (value: number): string => (value < 10 ? `0${value}` : String(value));

/** `YYYY-MM-DD` of a Date's UTC fields. */
export function isoDatePart(date: Date): string {
  const year = date.getUTCFullYear();
  return `${year < 1000 ? String(year).padStart(4, "0") : year}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}`;
}

/** `hh:mm:ss` of a Date's UTC fields. */
export function isoTimePart(date: Date): string {
  return `${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}`;
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isDay(text: string): boolean {
  if (!DATE.test(text)) return false;
  const date = new Date(Date.parse(`${text}T00:00:00Z`));
  return !Number.isNaN(date.getTime()) && isoDatePart(date) === text;
}

/** The `YYYY-MM-DD` date of a day number (days since 1970-01-01). */
export function dateOfDayNumber(day: number): string {
  return isoDatePart(new Date(day * DAY_MS));
}

/** The local day of an instant. */
export function dayOf(ms: number, timeZone: string): string {
  return isoDatePart(wallDate(ms, timeZone));
}

export function addDays(day: string, count: number): string {
  return dateOfDayNumber(dayNumber(day) + count);
}

/** Every day from `first` to `last`, both included. */
export function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let day = dayNumber(first); day <= dayNumber(last); day++) out.push(dateOfDayNumber(day));
  return out;
}

/** When a local day begins: its midnight, or the first instant after it when midnight is skipped. */
export function dayStartMs(day: string, timeZone: string): number {
  return instantOfWall(dayNumber(day) * DAY_MS, timeZone);
}

/** When a local day ends (the next one begins). */
export function dayEndMs(day: string, timeZone: string): number {
  return instantOfWall((dayNumber(day) + 1) * DAY_MS, timeZone);
}

/** The local day that holds `ms`, as instants: 23, 24 or 25 hours long. */
export function localDay(ms: number, timeZone: string): { start: number; end: number } {
  const day = Math.floor(wallDate(ms, timeZone).getTime() / DAY_MS);
  return { start: instantOfWall(day * DAY_MS, timeZone), end: instantOfWall((day + 1) * DAY_MS, timeZone) };
}
