/**
 * Time-zone arithmetic with Intl only. Offsets are cached per zone and UTC day, and on the rare
 * days with a transition per 15-minute bucket (every offset in use today changes on a 15-minute
 * boundary of UTC); local fields come from UTC getters on the shifted instant.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const BUCKET_MS = 15 * MINUTE_MS;
const MAX_CACHED = 200_000;

interface Zone {
  readonly format: Intl.DateTimeFormat;
  /** By UTC day: the offset when it holds all day, NaN when it changes that day. */
  readonly days: Map<number, number>;
  /** By 15-minute bucket, for days with a transition. */
  readonly offsets: Map<number, number>;
}

const zones = new Map<string, Zone>();

function zone(timeZone: string): Zone {
  let found = zones.get(timeZone);
  if (!found) {
    const format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    found = { format, days: new Map(), offsets: new Map() };
    zones.set(timeZone, found);
  }
  return found;
}

function computeOffset(format: Intl.DateTimeFormat, ms: number): number {
  const fields = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const part of format.formatToParts(ms)) {
    if (part.type in fields) fields[part.type as keyof typeof fields] = Number(part.value);
  }
  const wall = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The zone's UTC offset in ms at an instant (positive east of Greenwich). */
export function offsetMs(ms: number, timeZone: string): number {
  const { format, days, offsets } = zone(timeZone);
  const day = Math.floor(ms / DAY_MS);
  let wholeDay = days.get(day);
  if (wholeDay === undefined) {
    const first = computeOffset(format, day * DAY_MS);
    const last = computeOffset(format, (day + 1) * DAY_MS - BUCKET_MS);
    wholeDay = first === last ? first : Number.NaN;
    if (days.size >= MAX_CACHED) days.clear();
    days.set(day, wholeDay);
  }
  if (!Number.isNaN(wholeDay)) return wholeDay;
  const bucket = Math.floor(ms / BUCKET_MS);
  let offset = offsets.get(bucket);
  if (offset === undefined) {
    offset = computeOffset(format, bucket * BUCKET_MS);
    if (offsets.size >= MAX_CACHED) offsets.clear();
    offsets.set(bucket, offset);
  }
  return offset;
}

/** The instant shifted so that its UTC fields read as the zone's wall clock. */
function wallDate(ms: number, timeZone: string): Date {
  return new Date(ms + offsetMs(ms, timeZone));
}

const pad2 = (value: number): string => (value < 10 ? `0${value}` : String(value));

function datePart(wall: Date): string {
  const year = wall.getUTCFullYear();
  return `${year < 1000 ? String(year).padStart(4, "0") : year}-${pad2(wall.getUTCMonth() + 1)}-${pad2(wall.getUTCDate())}`;
}

function timePart(wall: Date): string {
  return `${pad2(wall.getUTCHours())}:${pad2(wall.getUTCMinutes())}:${pad2(wall.getUTCSeconds())}`;
}

/** Local date `YYYY-MM-DD` of an instant. */
export function localDate(ms: number, timeZone: string): string {
  return datePart(wallDate(ms, timeZone));
}

/** Local `YYYY-MM-DD hh:mm:ss` of an instant. */
export function formatLocal(ms: number, timeZone: string): string {
  const wall = wallDate(ms, timeZone);
  return `${datePart(wall)} ${timePart(wall)}`;
}

/** Minutes since local midnight, 0..1439. */
export function localMinuteOfDay(ms: number, timeZone: string): number {
  const wall = wallDate(ms, timeZone);
  return wall.getUTCHours() * 60 + wall.getUTCMinutes();
}

/** Local day of the week: 0 Monday … 6 Sunday. */
export function localDayOfWeek(ms: number, timeZone: string): number {
  return (wallDate(ms, timeZone).getUTCDay() + 6) % 7;
}

/** ISO 8601 in UTC without fractions: `YYYY-MM-DDThh:mm:ssZ`. */
export function isoUtc(ms: number): string {
  const date = new Date(ms);
  return `${datePart(date)}T${timePart(date)}Z`;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export function dayNumber(date: string): number {
  const match = DATE.exec(date);
  if (!match) throw new RangeError(`not a date: ${date}`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS;
}

/** The `YYYY-MM-DD` date of a day number. */
export function dateOfDayNumber(day: number): string {
  return datePart(new Date(day * DAY_MS));
}

/** Minutes of day of `HH:mm` or `HH:mm:ss`, or undefined when malformed. */
export function parseClock(time: string): number | undefined {
  const match = TIME.exec(time.trim());
  if (!match) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = match[3] === undefined ? 0 : Number(match[3]);
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  return hours * 60 + minutes + seconds / 60;
}

/**
 * The instant of a local wall time. A time skipped by a spring-forward transition resolves to
 * the same distance after the transition; a repeated time resolves to its first occurrence.
 */
export function utcMsOfLocal(date: string, time: string, timeZone: string): number {
  const minutes = parseClock(time);
  if (minutes === undefined) throw new RangeError(`not a time: ${time}`);
  const wall = dayNumber(date) * DAY_MS + Math.round(minutes * MINUTE_MS);
  const before = offsetMs(wall - DAY_MS, timeZone);
  const after = offsetMs(wall + DAY_MS, timeZone);
  const early = wall - before;
  const late = wall - after;
  const earlyValid = offsetMs(early, timeZone) === before;
  const lateValid = offsetMs(late, timeZone) === after;
  if (earlyValid && lateValid) return Math.min(early, late);
  if (earlyValid) return early;
  if (lateValid) return late;
  return early;
}

/** A local `YYYY-MM-DD`, `YYYY-MM-DD hh:mm[:ss]` or `YYYY-MM-DDThh:mm[:ss]` as an instant. */
export function localDateTimeToMs(text: string, timeZone: string): number {
  const trimmed = text.trim();
  const split = trimmed.search(/[T ]/);
  if (split < 0) return utcMsOfLocal(trimmed, "00:00", timeZone);
  return utcMsOfLocal(trimmed.slice(0, split), trimmed.slice(split + 1), timeZone);
}
