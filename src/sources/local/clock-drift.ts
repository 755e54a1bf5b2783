import { type State, wallOfText } from "../../local/index.js";
import { offsetMs } from "../../time/index.js";
import type { StateValues } from "../../vocabulary/index.js";

/** The state key of a device clock's drift: seconds it is ahead of the daemon's clock (negative: behind). */
export const CLOCK_DRIFT = "clock_drift";

const HALF_SECOND_MS = 500;

/**
 * Adds `clock_drift` to a device's values: what its clock shows (its HR 35-40, the house's wall
 * time with no zone) less what a right clock on the house's wall shows at `atMs` by the daemon's
 * clock in the house's zone. An inverter left on summer time after the October change reads
 * +3600. Left out when the registers were not read or hold no date. `heardAt` is when they
 * answered, by the daemon's clock.
 */
export function withClockDrift(
  values: StateValues,
  state: State,
  clock: { readonly atMs: number; readonly heardAt: number | undefined; readonly timeZone: string },
): StateValues {
  const { atMs, heardAt, timeZone } = clock;
  const read = typeof state.clock === "string" ? wallOfText(state.clock) : undefined;
  if (read === undefined || heardAt === undefined) return values;
  // The registers hold whole seconds (half a second short, on average, of the instant they were
  // read at), read at most 10 minutes ago (dongle.ts): the clock has run on since.
  const shown = read + HALF_SECOND_MS + (atMs - heardAt);
  const houseWallMs = atMs + offsetMs(atMs, timeZone);
  values[CLOCK_DRIFT] = Math.round((shown - houseWallMs) / 1000);
  return values;
}
