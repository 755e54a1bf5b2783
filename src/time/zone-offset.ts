import { DAY_MS, MINUTE_MS, SECOND_MS } from "./units.js";

/**
 * A zone's UTC offset at an instant, with Intl only. The simulator asks for millions of them, so
 * offsets are cached per zone and UTC day, and on the rare days with a transition per 15-minute
 * bucket (every offset in use today changes on a 15-minute boundary of UTC).
 */

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

/** True when Intl knows the zone. */
export function isTimeZone(timeZone: string): boolean {
  try {
    zone(timeZone);
    return true;
  } catch {
    return false;
  }
}

function computeOffset(format: Intl.DateTimeFormat, ms: number): number {
  const fields = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const part of format.formatToParts(ms)) {
    if (part.type in fields) fields[part.type as keyof typeof fields] = Number(part.value);
  }
  const wall = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
  return wall - Math.floor(ms / SECOND_MS) * SECOND_MS;
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
export function wallDate(ms: number, timeZone: string): Date {
  return new Date(ms + offsetMs(ms, timeZone));
}
