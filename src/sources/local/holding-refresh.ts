import type { Detected } from "../../local/index.js";
import type { Clock } from "../../time/index.js";
import { readsClock } from "./reads.js";

/**
 * How often a single-phase inverter's HR 0-59 is read again once its model is known: it holds the
 * battery calibration stage (HR 29), which an installer or the inverter changes while it runs. A
 * calibration lasts hours, so a few minutes' delay costs nothing, and the live poll stays one
 * request.
 */
export const HOLDING_REFRESH_MS = 2 * 60_000;

/** How often another controller with a clock (HR 35-40, in the same bank) has it read again: it moves only by drift. */
export const CLOCK_REFRESH_MS = 10 * 60_000;

/**
 * When the identity bank (HR 0-59) is due again for what it holds that changes: the calibration
 * stage and the clock. Counted from when it was last asked, not answered, so a bank that does not
 * answer is not asked at every poll.
 */
export class HoldingRefresh {
  private askedAt: number | undefined;

  constructor(private readonly clock: Clock) {}

  due(detected: Detected): boolean {
    const every =
      detected.family === "single-phase" ? HOLDING_REFRESH_MS : readsClock(detected) ? CLOCK_REFRESH_MS : undefined;
    if (every === undefined) return false;
    return this.askedAt === undefined || this.clock.now() - this.askedAt >= every;
  }

  asked(): void {
    this.askedAt = this.clock.now();
  }
}
