/**
 * Wall-clock arithmetic in an IANA time zone with Intl only. Tariff hours, deadlines like
 * "07:00" and zone days are local; the planner works in epoch milliseconds.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const SLOT_MS = 30 * MINUTE_MS;

export interface WallClock {
  readonly year: number;
  /** 1 to 12. */
  readonly month: number;
  readonly day: number;
  /** 0 Monday to 6 Sunday, as the EV charger schedule counts them. */
  readonly weekday: number;
  /** Minutes since local midnight. */
  readonly minutes: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Readonly<Record<string, number>> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

function format(timeZone: string): Intl.DateTimeFormat {
  let found = formats.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      weekday: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    });
    formats.set(timeZone, found);
  }
  return found;
}

/** True when Intl knows the zone. */
export function isTimeZone(timeZone: string): boolean {
  try {
    format(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function wallClock(ms: number, timeZone: string): WallClock {
  const fields = { year: 0, month: 1, day: 1, hour: 0, minute: 0, weekday: 0 };
  for (const part of format(timeZone).formatToParts(ms)) {
    if (part.type === "weekday") fields.weekday = WEEKDAYS[part.value] ?? 0;
    else if (part.type in fields) fields[part.type as "year"] = Number(part.value);
  }
  return {
    year: fields.year,
    month: fields.month,
    day: fields.day,
    weekday: fields.weekday,
    minutes: fields.hour * 60 + fields.minute,
  };
}

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich), to the minute. */
export function offsetMs(ms: number, timeZone: string): number {
  const wall = wallClock(ms, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day) + wall.minutes * MINUTE_MS;
  return asUtc - Math.floor(ms / MINUTE_MS) * MINUTE_MS;
}

/**
 * The instant of a local date and time. An hour that happens twice (clocks go back) gives the
 * first; a time skipped when clocks go forward gives the instant just as far after the gap.
 */
export function localToUtc(year: number, month: number, day: number, minutes: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day) + minutes * MINUTE_MS;
  const before = offsetMs(wall - 12 * HOUR_MS, timeZone);
  const after = offsetMs(wall + 12 * HOUR_MS, timeZone);
  const candidates = [wall - before, wall - after].filter((ms) => wall - offsetMs(ms, timeZone) === ms);
  if (candidates.length > 0) return Math.min(...candidates);
  return wall - before;
}

/** Local midnight starting the day that holds `ms`, and the next one (23, 24 or 25 hours later). */
export function localDay(ms: number, timeZone: string): { start: number; end: number } {
  const wall = wallClock(ms, timeZone);
  const next = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + 1));
  return {
    start: localToUtc(wall.year, wall.month, wall.day, 0, timeZone),
    end: localToUtc(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, timeZone),
  };
}

/** "07:30" as minutes since midnight; "24:00" is 1440. */
export function parseClock(text: string): number {
  const [hours, minutes] = text.split(":").map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** The first instant after `now` at which the local clock reads `clock` ("HH:MM"): today or tomorrow. */
export function nextLocalTime(now: number, clock: string, timeZone: string): number {
  const wall = wallClock(now, timeZone);
  const minutes = parseClock(clock);
  for (let add = 0; add < 3; add++) {
    const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + add));
    const at = localToUtc(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), minutes, timeZone);
    if (at > now) return at;
  }
  return now + 24 * HOUR_MS;
}

const pad = (value: number): string => String(value).padStart(2, "0");

/** "HH:MM" of an instant on the local clock, as the inverter's slots take it. */
export function localClockText(ms: number, timeZone: string): string {
  const { minutes } = wallClock(ms, timeZone);
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** "YYYY-MM-DD HH:MM" on the local clock. */
export function localDateTimeText(ms: number, timeZone: string): string {
  const wall = wallClock(ms, timeZone);
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)} ${localClockText(ms, timeZone)}`;
}

/** Half-hour boundaries from `from` (rounded down) until `to`. UK half-hours are UTC half-hours. */
export function halfHourStarts(from: number, to: number): number[] {
  const starts: number[] = [];
  for (let at = Math.floor(from / SLOT_MS) * SLOT_MS; at < to; at += SLOT_MS) starts.push(at);
  return starts;
}
