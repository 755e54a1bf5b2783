import { isoDatePart, isoTimePart } from "./local-days.js";
import { wallDate } from "./zone-offset.js";

/** What the local clock shows at an instant. */

/** Local `YYYY-MM-DD hh:mm:ss` of an instant. */
export function formatLocal(ms: number, timeZone: string): string {
  const wall = wallDate(ms, timeZone);
  return `${isoDatePart(wall)} ${isoTimePart(wall)}`;
}

/** Minutes since local midnight, 0..1439. */
export function localMinuteOfDay(ms: number, timeZone: string): number {
  const wall = wallDate(ms, timeZone);
  return wall.getUTCHours() * 60 + wall.getUTCMinutes();
}

/** Local day of the week: 0 Monday … 6 Sunday, as the EV charger schedule counts them. */
export function localDayOfWeek(ms: number, timeZone: string): number {
  return (wallDate(ms, timeZone).getUTCDay() + 6) % 7;
}

export interface WallClock {
  readonly year: number;
  /** 1 to 12. */
  readonly month: number;
  readonly day: number;
  /** 0 Monday to 6 Sunday. */
  readonly weekday: number;
  /** Minutes since local midnight. */
  readonly minutes: number;
}

export function wallClock(ms: number, timeZone: string): WallClock {
  const wall = wallDate(ms, timeZone);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    weekday: (wall.getUTCDay() + 6) % 7,
    minutes: wall.getUTCHours() * 60 + wall.getUTCMinutes(),
  };
}

/** "HH:MM" of an instant on the local clock, as the inverter's slots take it. */
export function localClockText(ms: number, timeZone: string): string {
  return formatLocal(ms, timeZone).slice(11, 16);
}

/** "YYYY-MM-DD HH:MM" on the local clock. */
export function localDateTimeText(ms: number, timeZone: string): string {
  return formatLocal(ms, timeZone).slice(0, 16);
}
