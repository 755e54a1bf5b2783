import {
  BehaviorSubject,
  catchError,
  defer,
  EMPTY,
  expand,
  filter,
  finalize,
  map,
  merge,
  NEVER,
  type Observable,
  of,
  race,
  type SchedulerLike,
  switchMap,
  take,
  timer,
} from "rxjs";
import type { PollResult, Resource } from "../sources/index.js";
import { fromAbortable } from "./abortable.js";

export type Outcome =
  | { readonly resource: Resource; readonly ok: true; readonly result: PollResult }
  | { readonly resource: Resource; readonly ok: false; readonly error: unknown; readonly failures: number };

export interface LoopOptions {
  readonly scheduler: SchedulerLike;
  /** Aborting it abandons the in-flight poll (unsubscribing does too). */
  readonly signal?: AbortSignal;
  /** The first poll waits this long (a wake-up or trigger still polls at once); 0 by default. */
  readonly firstPollAfterMs?: number;
  /** Poll at once when this emits (a refresh of one of the resource's devices). */
  readonly wake: Observable<unknown>;
  readonly maxBackoffMs: number;
}

/** First retry of a failing resource that has no period of its own. */
const TRIGGERED_RETRY_MS = 60_000;

/**
 * Polls a resource at once (or after `firstPollAfterMs`), then every `periodMs` measured from the start of the last poll
 * (so the cadence does not drift by the request time), or at once when woken or triggered.
 * After a failure the wait doubles from one period up to `maxBackoffMs` (or the period, if
 * longer). A wake-up that arrives while a poll is in flight polls again right after it, since
 * the answer may predate whatever prompted it.
 */
export function pollLoop(resource: Resource, options: LoopOptions): Observable<Outcome> {
  const { scheduler, signal } = options;
  return defer(() => {
    const wakeups = new BehaviorSubject(0);
    const woken = merge(options.wake, resource.triggers ?? EMPTY).subscribe(() => wakeups.next(wakeups.value + 1));
    let seen = 0;
    let started = 0;
    let failures = 0;

    const attempt = (): Observable<Outcome> =>
      defer(() => {
        seen = wakeups.value;
        started = scheduler.now();
        return fromAbortable((s) => resource.poll(s), signal).pipe(
          map((result): Outcome => {
            failures = 0;
            return { resource, ok: true, result };
          }),
          catchError((error: unknown) => {
            failures++;
            return of<Outcome>({ resource, ok: false, error, failures });
          }),
        );
      });

    const waitMs = (): number | undefined => {
      const period = resource.periodMs;
      if (failures > 0) {
        const base = period ?? TRIGGERED_RETRY_MS;
        return Math.min(base * 2 ** (failures - 1), Math.max(options.maxBackoffMs, base));
      }
      return period === undefined ? undefined : Math.max(0, started + period - scheduler.now());
    };

    const after = (delay: number | undefined): Observable<Outcome> =>
      race(wakeups.pipe(filter((count) => count > seen)), delay === undefined ? NEVER : timer(delay, scheduler)).pipe(
        take(1),
        switchMap(attempt),
      );
    const next = (): Observable<Outcome> => after(waitMs());
    const first = options.firstPollAfterMs ? after(options.firstPollAfterMs) : attempt();

    return first.pipe(
      expand(next),
      finalize(() => woken.unsubscribe()),
    );
  });
}
