import { weekdayOf } from "./plan.js";
import type { Schedule } from "./settings.js";

function minutesOf(time: string): number {
  const [hours = "0", minutes = "0"] = time.split(":");
  return Number(hours) * 60 + Number(minutes);
}

/**
 * The limit in amps of the schedule period running at `ms` (UTC, the charger's clock), or null
 * outside every period. A period whose end is not after its start runs past midnight into the
 * next day; equal start and end make a whole day.
 */
export function periodLimitAt(schedule: Schedule, ms: number): number | null {
  const date = new Date(ms);
  const minute = date.getUTCHours() * 60 + date.getUTCMinutes();
  const today = weekdayOf(ms);
  const yesterday = (today + 6) % 7;
  let limit: number | null = null;
  for (const period of schedule.periods) {
    const start = minutesOf(period.startTime);
    const end = minutesOf(period.endTime);
    const running =
      start < end
        ? period.days.includes(today) && minute >= start && minute < end
        : (period.days.includes(today) && minute >= start) || (period.days.includes(yesterday) && minute < end);
    // Overlapping periods: the highest limit wins.
    if (running) limit = Math.max(limit ?? 0, period.limit);
  }
  return limit;
}
