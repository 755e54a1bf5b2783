/*
 * Dates and times in the browser's language (24-hour where it uses that), in the daemon's zone,
 * never a hard-coded locale. The zone comes from the API; until it does, the browser's own.
 */

export interface LocalTime {
  readonly timeZone: string | undefined;
  /** "26/11/2026" in en-GB, "11/26/2026" in en-US. */
  day(ms: number): string;
  /** "Thu 26 Nov" in en-GB: a chart's day tick. */
  shortDay(ms: number): string;
  /** "14:05" in de-DE, "2:05 PM" in en-US. */
  time(ms: number): string;
  /** Day and time. */
  dateTime(ms: number): string;
  /** The zone as people read it: "Europe/London (GMT)". */
  zoneName(): string;
}

export function localTime(timeZone: string | null | undefined, language = navigator.language): LocalTime {
  const zone = timeZone ?? undefined;
  const format = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(language, { ...options, ...(zone ? { timeZone: zone } : {}) });
  const day = format({ dateStyle: "short" });
  const shortDay = format({ weekday: "short", day: "numeric", month: "short" });
  const time = format({ timeStyle: "short" });
  const dateTime = format({ dateStyle: "short", timeStyle: "short" });
  return {
    timeZone: zone,
    day: (ms) => day.format(ms),
    shortDay: (ms) => shortDay.format(ms),
    time: (ms) => time.format(ms),
    dateTime: (ms) => dateTime.format(ms),
    zoneName: () => zoneName(zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, Date.now()),
  };
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let made = formats.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(navigator.language, { timeZone, ...options });
    formats.set(key, made);
  }
  return made;
}

const dayOf = (ms: number, timeZone: string): string =>
  format(timeZone, { year: "numeric", month: "2-digit", day: "2-digit" }).format(ms);

/** "00:30", or "Fri 00:30" when not on the day of `now` in the zone. */
export function zonedTime(ms: number, timeZone: string, now: number): string {
  const time = format(timeZone, { hour: "2-digit", minute: "2-digit" }).format(ms);
  return dayOf(ms, timeZone) === dayOf(now, timeZone)
    ? time
    : `${format(timeZone, { weekday: "short" }).format(ms)} ${time}`;
}

/** The zone's IANA name and its short name at `at`, e.g. "Europe/London (GMT)". */
export function zoneName(timeZone: string, at: number): string {
  const short = format(timeZone, { timeZoneName: "short" })
    .formatToParts(at)
    .find((part) => part.type === "timeZoneName")?.value;
  return short && short !== timeZone ? `${timeZone} (${short})` : timeZone;
}
