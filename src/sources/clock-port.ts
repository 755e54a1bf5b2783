import type { PathOutcome } from "./control-ports.js";

/**
 * An inverter's or EMS's own clock, for the control gate's clock sync alone (control/clock-sync.ts):
 * the only way a write reaches the clock's registers. Times are "wall ms": the house's local wall
 * time read as if it were UTC, which is what the device holds.
 */
export interface ClockControl {
  /** Whether this path can set the device's clock now (the LAN: its dongle has identified it). */
  carries(serial: string): boolean;
  /**
   * Sets the clock to `wallNow()` (asked again as each field is written, so the seconds are those
   * of the moment they are written), then reads it back: done with what it shows after, refused
   * when nothing was sent, open when some of it may have been.
   */
  setClock(serial: string, wallNow: () => number, signal?: AbortSignal): Promise<PathOutcome<number>>;
}
