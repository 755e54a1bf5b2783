/** Lengths of time in milliseconds. */

export const SECOND_MS = 1000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** A tariff or flow slot: half an hour. */
export const SLOT_MS = 30 * MINUTE_MS;
