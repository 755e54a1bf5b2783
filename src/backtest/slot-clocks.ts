import { localToUtc, SLOT_MS, wallClock } from "../time/local-time.js";

/** Agile's next-day prices (23:00 to 23:00 local time) come out at 16:00 local time. */
export const PUBLISHED_AT_MINUTES = 16 * 60;

export interface SlotClock {
  /** Minutes since local midnight. */
  readonly minutes: number;
  /** 0 Monday to 6 Sunday. */
  readonly weekday: number;
  /** The first slot whose price is not yet published at this slot's start. */
  readonly knownUntil: number;
}

/** The wall clock of every slot, and how far day-ahead prices are known at its start. */
export function slotClocks(starts: readonly number[], timeZone: string): SlotClock[] {
  const first = starts[0] ?? 0;
  const clocks: SlotClock[] = [];
  for (let t = 0; t < starts.length; t++) {
    const wall = wallClock(first + t * SLOT_MS, timeZone);
    const extraDay = wall.minutes >= PUBLISHED_AT_MINUTES ? 1 : 0;
    const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + extraDay));
    const until = localToUtc(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), 23 * 60, timeZone);
    const knownUntil = Math.min(starts.length, Math.max(t + 1, Math.round((until - first) / SLOT_MS)));
    clocks.push({ minutes: wall.minutes, weekday: wall.weekday, knownUntil });
  }
  return clocks;
}
