import { localToUtc, SLOT_MS, wallClock } from "../../src/time/local-time.js";
import { SLOTS, YEAR_START } from "./data.js";

export const TIME_ZONE = "Europe/London";
/** Agile's next-day prices (23:00 to 23:00 UK time) come out at 16:00 UK time. */
export const PUBLISHED_AT_MINUTES = 16 * 60;

export interface SlotClock {
  /** Minutes since local midnight. */
  readonly minutes: number;
  /** 0 Monday to 6 Sunday. */
  readonly weekday: number;
  /** The first slot whose price is not yet published at this slot's start. */
  readonly knownUntil: number;
}

/** UK wall clock of every slot of the year, and how far Agile's prices are known at its start. */
export function slotClocks(): SlotClock[] {
  const clocks: SlotClock[] = [];
  for (let t = 0; t < SLOTS; t++) {
    const wall = wallClock(YEAR_START + t * SLOT_MS, TIME_ZONE);
    const extraDay = wall.minutes >= PUBLISHED_AT_MINUTES ? 1 : 0;
    const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + extraDay));
    const until = localToUtc(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), 23 * 60, TIME_ZONE);
    const knownUntil = Math.min(SLOTS, Math.max(t + 1, Math.round((until - YEAR_START) / SLOT_MS)));
    clocks.push({ minutes: wall.minutes, weekday: wall.weekday, knownUntil });
  }
  return clocks;
}
