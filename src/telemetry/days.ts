/** Local calendar days (`YYYY-MM-DD`) in an IANA zone, and the instants where they start. */

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string): Intl.DateTimeFormat {
  let found = formats.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(timeZone, found);
  }
  return found;
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isDay(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** The local day of an instant. */
export function dayOf(ms: number, timeZone: string): string {
  const parts = wallClock(ms, timeZone);
  return parts.slice(0, 10);
}

/** `YYYY-MM-DD hh:mm:ss` of an instant on the zone's wall clock. */
export function wallClock(ms: number, timeZone: string): string {
  const p: Record<string, string> = {};
  for (const part of format(timeZone).formatToParts(ms)) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

export function addDays(day: string, count: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + count * DAY_MS).toISOString().slice(0, 10);
}

/** Every day from `first` to `last`, both included. */
export function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) out.push(day);
  return out;
}

/** The instant a local wall-clock time (`YYYY-MM-DD hh:mm:ss`) happens; the earlier one when it happens twice. */
export function localToMs(local: string, timeZone: string): number {
  return localCandidates(local, timeZone)[0] ?? Number.NaN;
}

/** Every instant showing this wall-clock time, earliest first: two in the hour the clocks go back. */
export function localCandidates(local: string, timeZone: string): number[] {
  const asUtc = Date.parse(`${local.replace(" ", "T")}Z`);
  if (Number.isNaN(asUtc)) return [];
  const guesses = [asUtc - offsetMs(asUtc, timeZone)];
  guesses.push(asUtc - offsetMs(guesses[0] ?? asUtc, timeZone));
  for (const hour of [-3_600_000, 3_600_000]) guesses.push(asUtc - offsetMs(asUtc + hour, timeZone));
  const exact = [...new Set(guesses)].filter((ms) => wallClock(ms, timeZone) === local).sort((a, b) => a - b);
  // A time the clocks skip over: the instant it would have been.
  return exact.length > 0 ? exact : [Math.min(...guesses)];
}

/** When a local day begins. */
export function dayStartMs(day: string, timeZone: string): number {
  return localToMs(`${day} 00:00:00`, timeZone);
}

/** When a local day ends (the next one begins). */
export function dayEndMs(day: string, timeZone: string): number {
  return dayStartMs(addDays(day, 1), timeZone);
}

function offsetMs(ms: number, timeZone: string): number {
  return Date.parse(`${wallClock(ms, timeZone).replace(" ", "T")}Z`) - Math.floor(ms / 1000) * 1000;
}

/**
 * Epoch ms of a service timestamp: ISO 8601 with a zone as it says, a local datetime (energy
 * flows, older meter records) on the account's wall clock. NaN when it is neither.
 */
export function timestampMs(text: string, timeZone: string): number {
  if (/([zZ]|[+-]\d{2}:?\d{2})$/.test(text)) return Date.parse(text);
  if (DATE.test(text)) return dayStartMs(text, timeZone);
  return localToMs(text.replace("T", " ").slice(0, 19), timeZone);
}
