/** Times in the house's zone, in the browser's language (24-hour where the language uses it). */

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
