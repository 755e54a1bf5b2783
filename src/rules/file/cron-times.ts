import { parse } from "node-cron";
import { MINUTE_MS, type WallClock, wallClock } from "../../time/index.js";

/**
 * When cron expressions fire, on the local clock. The engine (in tests and in the daemon alike)
 * and `rules plan` both read their times here; node-cron only parses and checks the syntax:
 * 5 or 6 fields (seconds first), ranges, steps, lists, month and day names, `?`, nicknames such
 * as `@daily`, and the day tokens `L`, `L-n`, `nW`, `LW` (day of month), `nL` and `n#k` (day of
 * week). As in node-cron, the day of month and the day of week must both match.
 */
export function cronTimes(expression: string, from: number, to: number, timeZone: string): number[] {
  return [...firings(expression, from, to, timeZone)];
}

/** The first time at or after `from` and before `to` at which any of the expressions fires. */
export function nextCronTime(
  expressions: readonly string[],
  from: number,
  to: number,
  timeZone: string,
): number | undefined {
  let next: number | undefined;
  for (const expression of expressions) {
    const first = firings(expression, from, next ?? to, timeZone).next();
    if (!first.done) next = first.value;
  }
  return next;
}

/** The local minute of the day by which a day that does not match is left (two hours early, for clock changes). */
const SKIP_DAY_TO = 22 * 60;

function* firings(expression: string, from: number, to: number, timeZone: string): Generator<number> {
  const cron = compile(expression);
  for (let minute = Math.floor(from / MINUTE_MS) * MINUTE_MS; minute < to; ) {
    const wall = wallClock(minute, timeZone);
    const untilNextHour = 60 - (wall.minutes % 60);
    // Whole days and hours that cannot match are stepped over; clocks change on the hour.
    if (!cron.dayMatches(wall)) {
      minute += Math.max(SKIP_DAY_TO - wall.minutes, untilNextHour) * MINUTE_MS;
      continue;
    }
    if (!cron.hourMatches(wall)) {
      minute += untilNextHour * MINUTE_MS;
      continue;
    }
    if (cron.minuteMatches(wall)) {
      for (const second of cron.seconds) {
        const at = minute + second * 1000;
        if (at >= from && at < to) yield at;
      }
    }
    minute += MINUTE_MS;
  }
}

interface CompiledCron {
  /** Seconds within a matching minute, ascending. */
  readonly seconds: readonly number[];
  dayMatches(wall: WallClock): boolean;
  hourMatches(wall: WallClock): boolean;
  minuteMatches(wall: WallClock): boolean;
}

type Token = number | string;

function compile(expression: string): CompiledCron {
  const fields = parse(expression);
  const minutes = new Set(fields.minute);
  const hours = new Set(fields.hour);
  const months = new Set(fields.month);
  return {
    seconds: [...new Set(fields.second)].sort((a, b) => a - b),
    dayMatches: (wall) =>
      months.has(wall.month) &&
      fields.dayOfMonth.some((token) => dayOfMonthMatches(token, wall)) &&
      fields.dayOfWeek.some((token) => dayOfWeekMatches(token, wall)),
    hourMatches: (wall) => hours.has(Math.floor(wall.minutes / 60)),
    minuteMatches: (wall) => minutes.has(wall.minutes % 60),
  };
}

const LAST_MINUS = /^L-(\d{1,2})$/;
const NEAREST_WEEKDAY = /^(\d{1,2}|L)W$/;
const LAST_OF_WEEKDAY = /^([0-7])L$/;
const NTH_WEEKDAY = /^([0-7])#([1-5])$/;

function dayOfMonthMatches(token: Token, wall: WallClock): boolean {
  if (typeof token === "number") return token === wall.day;
  const last = daysInMonth(wall);
  if (token === "L") return wall.day === last;
  const minus = LAST_MINUS.exec(token);
  if (minus) return wall.day === last - Number(minus[1]);
  const nearest = NEAREST_WEEKDAY.exec(token);
  if (nearest) return wall.day === nearestWeekday(wall, nearest[1] === "L" ? last : Number(nearest[1]));
  return false;
}

function dayOfWeekMatches(token: Token, wall: WallClock): boolean {
  const weekday = cronWeekday(wall);
  if (typeof token === "number") return token % 7 === weekday;
  const lastOf = LAST_OF_WEEKDAY.exec(token);
  if (lastOf) return Number(lastOf[1]) % 7 === weekday && wall.day + 7 > daysInMonth(wall);
  const nth = NTH_WEEKDAY.exec(token);
  if (nth) return Number(nth[1]) % 7 === weekday && Math.ceil(wall.day / 7) === Number(nth[2]);
  return false;
}

/** Cron counts Sunday as 0 (and 7); WallClock counts Monday as 0. */
function cronWeekday(wall: WallClock): number {
  return (wall.weekday + 1) % 7;
}

function daysInMonth(wall: WallClock): number {
  return new Date(Date.UTC(wall.year, wall.month, 0)).getUTCDate();
}

/** The weekday nearest to a day of the month, without leaving the month (cron's `W`). */
function nearestWeekday(wall: WallClock, target: number): number {
  const last = daysInMonth(wall);
  if (target < 1 || target > last) return -1;
  const weekday = new Date(Date.UTC(wall.year, wall.month - 1, target)).getUTCDay();
  if (weekday === 6) return target === 1 ? 3 : target - 1;
  if (weekday === 0) return target === last ? target - 2 : target + 1;
  return target;
}
