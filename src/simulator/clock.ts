/**
 * The simulator's clock. Simulated time runs `speed` times faster than the wall clock from
 * `start`; every endpoint reads the same clock, so an accelerated run stays consistent.
 * A manual clock (speed 0) only moves when told to, for tests.
 */
export interface Clock {
  /** Simulated time, epoch milliseconds. */
  now(): number;
}

export interface SimClockOptions {
  /** Simulated time at start-up, epoch ms; defaults to the wall clock. */
  readonly start?: number;
  /** 1 is real time; 60 runs a simulated minute per second; 0 is a manual clock. */
  readonly speed?: number;
  readonly wallClock?: () => number;
}

export class SimClock implements Clock {
  readonly speed: number;
  private readonly wallClock: () => number;
  private readonly wallStart: number;
  private readonly simStart: number;
  private offset = 0;

  constructor(options: SimClockOptions = {}) {
    this.wallClock = options.wallClock ?? Date.now;
    this.wallStart = this.wallClock();
    this.simStart = options.start ?? this.wallStart;
    this.speed = options.speed ?? 1;
    if (!(this.speed >= 0) || !Number.isFinite(this.speed))
      throw new RangeError("speed must be 0 or a positive number");
  }

  now(): number {
    return Math.floor(this.simStart + (this.wallClock() - this.wallStart) * this.speed + this.offset);
  }

  /** Jumps simulated time forward, e.g. to a window's end in a test. */
  advance(ms: number): void {
    if (ms < 0) throw new RangeError("the clock only moves forward");
    this.offset += ms;
  }

  /** Simulated milliseconds that pass in `wallMs` of real time. */
  simulatedDuration(wallMs: number): number {
    return wallMs * this.speed;
  }
}
