import { asyncScheduler, type SchedulerAction, type SchedulerLike, type Subscription } from "rxjs";

/**
 * The daemon's one clock: epoch-ms `now()` and timers, in the shape of an RxJS scheduler, so
 * the poll loops' operators and the rules engine take it as it is. Production code gets
 * `systemClock`; tests get a `VirtualClock` (or the simulator's `SimClock`, which is one) and
 * move time themselves instead of sleeping.
 */
export type Clock = SchedulerLike;

/** Wall time and real timers (RxJS's asyncScheduler, which reads Date.now). */
export const systemClock: Clock = asyncScheduler;

export interface TimerOptions {
  /**
   * A background timer (a heartbeat) never keeps the process alive: shutdown does not wait for
   * it. Leave it off for a timer something waits on, such as a rate window's end.
   */
  readonly background?: boolean;
}

/** Runs `fn` once, `ms` from now on the clock; returns a cancel. */
export function later(clock: Clock, ms: number, fn: () => void, options: TimerOptions = {}): () => void {
  if (clock === systemClock && options.background) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  }
  const subscription = clock.schedule(fn, Math.max(0, ms));
  return () => subscription.unsubscribe();
}

/** Runs `fn` every `ms` on the clock until the returned cancel is called. */
export function every(clock: Clock, ms: number, fn: () => void, options: TimerOptions = {}): () => void {
  if (clock === systemClock && options.background) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  }
  const subscription: Subscription = clock.schedule(function (this: SchedulerAction<unknown>) {
    fn();
    this.schedule(undefined, ms);
  }, ms);
  return () => subscription.unsubscribe();
}
