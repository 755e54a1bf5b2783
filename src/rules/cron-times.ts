import { parse } from "node-cron";
import { MINUTE_MS, wallClock } from "../time/local-time.js";

/**
 * The minutes in [from, to) at which a cron expression fires on the local clock (node-cron's
 * rules: day of month and day of week must both match). Special day tokens (L, #) are skipped.
 */
export function cronTimes(expression: string, from: number, to: number, timeZone: string): number[] {
  const fields = parse(expression);
  const minutes = new Set(fields.minute);
  const hours = new Set(fields.hour);
  const daysOfMonth = new Set(fields.dayOfMonth.filter((day): day is number => typeof day === "number"));
  const daysOfWeek = new Set(fields.dayOfWeek.filter((day): day is number => typeof day === "number"));
  const months = new Set(fields.month);
  const times: number[] = [];
  for (let at = Math.ceil(from / MINUTE_MS) * MINUTE_MS; at < to; at += MINUTE_MS) {
    const wall = wallClock(at, timeZone);
    // node-cron counts Sunday as 0 (and 7); ours counts Monday as 0.
    const cronWeekday = (wall.weekday + 1) % 7;
    if (
      minutes.has(wall.minutes % 60) &&
      hours.has(Math.floor(wall.minutes / 60)) &&
      months.has(wall.month) &&
      daysOfMonth.has(wall.day) &&
      (daysOfWeek.has(cronWeekday) || (cronWeekday === 0 && daysOfWeek.has(7)))
    )
      times.push(at);
  }
  return times;
}
