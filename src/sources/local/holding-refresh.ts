import type { Detected } from "../../local/index.js";
import type { Clock } from "../../time/index.js";

/**
 * How often a single-phase inverter's HR 0-59 is read again once its model is known: it holds the
 * battery calibration stage (HR 29), which an installer or the inverter changes while it runs. A
 * calibration lasts hours, so a few minutes' delay costs nothing, and the live poll stays one
 * request.
 */
export const HOLDING_REFRESH_MS = 2 * 60_000;

/** When the identity bank (HR 0-59) is due again for the calibration stage it holds. */
export class HoldingRefresh {
  private askedAt: number | undefined;

  constructor(private readonly clock: Clock) {}

  due(detected: Detected): boolean {
    if (detected.family !== "single-phase") return false;
    return this.askedAt === undefined || this.clock.now() - this.askedAt >= HOLDING_REFRESH_MS;
  }

  asked(): void {
    this.askedAt = this.clock.now();
  }
}
