import type { SchedulerLike } from "rxjs";

/** One-shot timers at an instant of the engine's clock. */
export interface Timers {
  /** Runs `fn` at `time` (epoch ms) or as soon as possible after; returns a cancel function. */
  at(time: number, fn: () => void): () => void;
}

export function timersOn(scheduler: SchedulerLike, now: () => number): Timers {
  return {
    at(time, fn) {
      const subscription = scheduler.schedule(fn, Math.max(0, time - now()));
      return () => subscription.unsubscribe();
    },
  };
}

/** One timer set again and again: setting it cancels the one set before. */
export class Alarm {
  private cancelSet: (() => void) | undefined;

  constructor(private readonly timers: Timers) {}

  /** Rings at `time`; an infinite time sets nothing. */
  set(time: number, fn: () => void): void {
    this.cancel();
    if (Number.isFinite(time)) this.cancelSet = this.timers.at(time, fn);
  }

  cancel(): void {
    this.cancelSet?.();
    this.cancelSet = undefined;
  }
}
