import { clockWords, wallOfWords } from "../../local/index.js";
import { offsetMs } from "../../time/index.js";

/** How a simulated device's clock behaves: its error now, how fast it drifts, and whether it keeps the zone's summer time itself. */
export interface DeviceClockBehaviour {
  /** Seconds the clock is ahead of the zone's wall time (negative: behind), set now. */
  readonly driftSeconds?: number;
  /** Seconds it gains a day (negative: loses). */
  readonly driftSecondsPerDay?: number;
  /**
   * Whether it moves itself at the zone's GMT/BST changes. A real inverter does not: the vendor's
   * portal moved it, so false by default.
   */
  readonly followsZone?: boolean;
}

const DAY_MS = 86_400_000;

/**
 * A device's own clock, as its HR 35-40 hold it: the house's local wall time as the device
 * believes it, in "wall ms" (the wall fields read as UTC, registers/clock.ts). It is anchored at
 * the instant it was last set and runs from there at its own rate; it follows the zone's offset
 * changes only when told to.
 */
export class DeviceClock {
  private anchorUtcMs: number;
  private anchorWallMs: number;
  private ratePerDay: number;
  private followsZone: boolean;

  constructor(
    private readonly timeZone: string,
    nowMs: number,
    behaviour: DeviceClockBehaviour = {},
  ) {
    this.anchorUtcMs = nowMs;
    this.anchorWallMs = this.zoneWallMs(nowMs) + (behaviour.driftSeconds ?? 0) * 1000;
    this.ratePerDay = behaviour.driftSecondsPerDay ?? 0;
    this.followsZone = behaviour.followsZone ?? false;
  }

  /** What the clock shows at `nowMs`, in wall ms. */
  wallMs(nowMs: number): number {
    const elapsed = nowMs - this.anchorUtcMs;
    const drift = (elapsed / DAY_MS) * this.ratePerDay * 1000;
    const zoneChange = this.followsZone
      ? offsetMs(nowMs, this.timeZone) - offsetMs(this.anchorUtcMs, this.timeZone)
      : 0;
    return Math.floor(this.anchorWallMs + elapsed + drift + zoneChange);
  }

  /** Seconds it is ahead of the zone's wall time at `nowMs` (negative: behind). */
  errorSeconds(nowMs: number): number {
    return Math.round((this.wallMs(nowMs) - this.zoneWallMs(nowMs)) / 1000);
  }

  /** The minute of day it shows at `nowMs`: what the device's timed slots run by. */
  minuteOfDay(nowMs: number): number {
    return Math.floor((((this.wallMs(nowMs) % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
  }

  behaviour(nowMs: number): Required<DeviceClockBehaviour> {
    return {
      driftSeconds: this.errorSeconds(nowMs),
      driftSecondsPerDay: this.ratePerDay,
      followsZone: this.followsZone,
    };
  }

  /** The admin's change: what is given replaces what was, from `nowMs` on. */
  change(nowMs: number, behaviour: DeviceClockBehaviour): void {
    const wall =
      behaviour.driftSeconds === undefined
        ? this.wallMs(nowMs)
        : this.zoneWallMs(nowMs) + behaviour.driftSeconds * 1000;
    this.anchorUtcMs = nowMs;
    this.anchorWallMs = wall;
    if (behaviour.driftSecondsPerDay !== undefined) this.ratePerDay = behaviour.driftSecondsPerDay;
    if (behaviour.followsZone !== undefined) this.followsZone = behaviour.followsZone;
  }

  /**
   * A write of one clock register (HR 35 + `index`), as the device takes it: that field of what
   * it shows now replaced. A word that makes no date is refused with the reason.
   */
  writeField(nowMs: number, index: number, word: number): { ok: true } | { ok: false; reason: string } {
    const words: (number | undefined)[] = clockWords(this.wallMs(nowMs));
    if (index < 0 || index >= words.length) return { ok: false, reason: `HR ${35 + index} is not a clock register` };
    words[index] = word;
    const wall = wallOfWords(words);
    if (wall === undefined) return { ok: false, reason: `HR ${35 + index} cannot hold ${word}: no date reads so` };
    this.anchorUtcMs = nowMs;
    this.anchorWallMs = wall;
    return { ok: true };
  }

  private zoneWallMs(nowMs: number): number {
    return nowMs + offsetMs(nowMs, this.timeZone);
  }
}
