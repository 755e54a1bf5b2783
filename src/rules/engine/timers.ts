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
