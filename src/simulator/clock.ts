import { systemClock, VirtualClock } from "../time/index.js";

/**
 * The simulator's clock. Simulated time runs `speed` times faster than the wall clock from
 * `start`; every endpoint reads the same clock, so an accelerated run stays consistent.
 * A manual clock (speed 0) only moves when told to, for tests. It is a `Clock` (time/clock.ts):
 * timers scheduled on it fire at simulated instants, on `advance` and, when it runs, on their own.
 */

export interface SimClockOptions {
  /** Simulated time at start-up, epoch ms; defaults to the wall clock. */
  readonly start?: number;
  /** 1 is real time; 60 runs a simulated minute per second; 0 is a manual clock. */
  readonly speed?: number;
  readonly wallClock?: () => number;
}

export class SimClock extends VirtualClock {
  readonly speed: number;
  private readonly wallClock: () => number;
  private readonly wallStart: number;
  private readonly simStart: number;
  private offset = 0;
  private armed: { at: number; timer: NodeJS.Timeout } | undefined;

  constructor(options: SimClockOptions = {}) {
    super();
    this.wallClock = options.wallClock ?? (() => systemClock.now());
    this.wallStart = this.wallClock();
    this.simStart = options.start ?? this.wallStart;
    this.speed = options.speed ?? 1;
    if (!(this.speed >= 0) || !Number.isFinite(this.speed))
      throw new RangeError("speed must be 0 or a positive number");
  }

  override now(): number {
    return Math.floor(this.simStart + (this.wallClock() - this.wallStart) * this.speed + this.offset);
  }

  protected override moveTo(time: number): void {
    this.offset += time - this.now();
  }

  /** Simulated milliseconds that pass in `wallMs` of real time. */
  simulatedDuration(wallMs: number): number {
    return wallMs * this.speed;
  }

  /** A running clock wakes itself for its earliest timer; a manual one waits for `advance`. */
  protected override queueChanged(): void {
    if (this.speed === 0) return;
    const due = this.earliestDue();
    if (due === undefined || (this.armed && this.armed.at <= due)) return;
    if (this.armed) clearTimeout(this.armed.timer);
    const timer = setTimeout(
      () => {
        this.armed = undefined;
        this.advanceTo(this.now());
        this.queueChanged();
      },
      Math.max(0, (due - this.now()) / this.speed),
    );
    timer.unref();
    this.armed = { at: due, timer };
  }
}
