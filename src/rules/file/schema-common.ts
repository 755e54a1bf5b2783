import { z } from "zod";
import { isTimeZone } from "../../time/index.js";

/** A local time of day, "07:00". */
export const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected a local time as HH:MM, e.g. 07:00");

/** "23:30-05:30": local, may cross midnight; the end may be 24:00. */
export const hoursRange = z
  .string()
  .regex(
    /^([01]\d|2[0-3]):[0-5]\d-(([01]\d|2[0-3]):[0-5]\d|24:00)$/,
    'expected local hours as "HH:MM-HH:MM", e.g. "23:30-05:30" (may cross midnight)',
  )
  .refine((text) => text.slice(0, 5) !== text.slice(6) && text !== "00:00-24:00", {
    message: "start and end are the same time: leave hours out for all day",
  });

export const DAY_NAMES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export const days = z.array(z.enum(DAY_NAMES)).min(1);
export const months = z.array(z.number().int().min(1).max(12)).min(1);

/** Per kWh, in the tariffs' currency; Agile import can go negative. */
export const price = z.number();

export const timeZone = z
  .string()
  .refine(isTimeZone, "not a time zone Intl knows: use an IANA name like Europe/London");

/** The single key of an object that is one of several kinds, or a problem to report. */
export function exactlyOneKey(
  value: Readonly<Record<string, unknown>>,
  kinds: readonly string[],
  what: string,
): { kind: string } | { problem: string } {
  const present = kinds.filter((kind) => value[kind] !== undefined);
  if (present.length === 1) return { kind: present[0] as string };
  if (present.length === 0) return { problem: `${what} needs one of: ${kinds.join(", ")}` };
  return { problem: `${what} has ${present.join(" and ")}: give one per entry (use a list for several)` };
}
