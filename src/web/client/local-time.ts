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
  const zoneLabel = format({ timeZoneName: "short" });
  return {
    timeZone: zone,
    day: (ms) => day.format(ms),
    shortDay: (ms) => shortDay.format(ms),
    time: (ms) => time.format(ms),
    dateTime: (ms) => dateTime.format(ms),
    zoneName: () => {
      const name = zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
      const short = zoneLabel.formatToParts(Date.now()).find((part) => part.type === "timeZoneName")?.value;
      return short && short !== name ? `${name} (${short})` : name;
    },
  };
}
