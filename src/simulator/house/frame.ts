import { dateOfDayNumber, localMinuteOfDay, offsetMs, utcMsOfLocal } from "../../time/index.js";

export const STEP_MS = 60_000;
export const STEP_HOURS = STEP_MS / 3_600_000;
/** Minute steps per 5-minute slot: data points and stored detail are per slot. */
export const STEPS_PER_SLOT = 5;
export const SLOT_MS = STEP_MS * STEPS_PER_SLOT;
/** The longest local day (25 h) in steps. */
export const MAX_STEPS = 1500;

/** One local day on the minute-step grid from local midnight. */
export interface DayFrame {
  /** Days since 1970-01-01 of the local date. */
  readonly day: number;
  readonly date: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly steps: number;
  readonly slots: number;
}

export function dayFrame(day: number, timeZone: string): DayFrame {
  const date = dateOfDayNumber(day);
  const startMs = utcMsOfLocal(date, "00:00", timeZone);
  const endMs = utcMsOfLocal(dateOfDayNumber(day + 1), "00:00", timeZone);
  const steps = Math.round((endMs - startMs) / STEP_MS);
  return { day, date, startMs, endMs, steps, slots: Math.ceil(steps / STEPS_PER_SLOT) };
}

/**
 * Fills `out` with each step's local minute of day. A day holds at most one transition, found by
 * bisection, so Intl is consulted a dozen times a day at most.
 */
export function fillLocalMinutes(frame: DayFrame, timeZone: string, out: Uint16Array): void {
  const first = localMinuteOfDay(frame.startMs, timeZone);
  const startOffset = offsetMs(frame.startMs, timeZone);
  const lastStepMs = frame.startMs + (frame.steps - 1) * STEP_MS;
  const endOffset = offsetMs(lastStepMs, timeZone);
  let transition = frame.steps;
  if (endOffset !== startOffset) {
    let low = 0;
    let high = frame.steps - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (offsetMs(frame.startMs + middle * STEP_MS, timeZone) === startOffset) low = middle + 1;
      else high = middle;
    }
    transition = low;
  }
  const shift = (endOffset - startOffset) / STEP_MS;
  for (let step = 0; step < frame.steps; step++) {
    const minute = first + step + (step >= transition ? shift : 0);
    out[step] = ((minute % 1440) + 1440) % 1440;
  }
}
