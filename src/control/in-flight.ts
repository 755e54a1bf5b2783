import type { ControlCall } from "../sources/index.js";
import { type Clock, later } from "../time/index.js";
import { type ChangeContext, callOptions } from "./context.js";

/** A call's result or what it threw. */
export type Settled<T> = { readonly ok: true; readonly answer: T } | { readonly ok: false; readonly error: unknown };

function settled<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (answer) => ({ ok: true, answer }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/** Resolves after `ms` on the clock, or at once when cancelled (its timer then goes). */
function pause(clock: Clock, ms: number): { done: Promise<void>; cancel: () => void } {
  let cancel: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    const drop = later(clock, ms, resolve);
    cancel = () => {
      drop();
      resolve();
    };
  });
  return { done, cancel };
}

export type Sent<T> =
  | { readonly answered: Settled<T> }
  /** No answer within the client's timeout: the request stays open, and this is its result to come. */
  | { readonly pending: Promise<Settled<T>> };

/**
 * Sends a change and waits for its answer as long as the client waits for any answer. A slower
 * answer is not given up on: the request stays open (up to `lateAnswerMs`), since the device may
 * still act on it, and the caller reads back meanwhile.
 */
export async function sendChange<T>(
  context: ChangeContext,
  send: (options: ControlCall) => Promise<T>,
): Promise<Sent<T>> {
  // The wait counts from when the request leaves, not from its wait for the rate budget.
  let timer: ReturnType<typeof pause> | undefined;
  let leave: () => void = () => {};
  const left = new Promise<void>((resolve) => {
    leave = resolve;
  });
  const pending = settled(
    send({ ...callOptions(context), timeoutMs: context.timing.lateAnswerMs, onSend: () => leave() }),
  );
  const soft = left.then(() => {
    timer = pause(context.clock, context.timing.answerMs);
    return timer.done.then(() => undefined);
  });
  const first = await Promise.race([pending, soft]);
  timer?.cancel();
  return first === undefined ? { pending } : { answered: first };
}

export interface Reading<V> {
  /** The device holds what was asked. */
  readonly matches: boolean;
  readonly value: V;
}

export type Settlement<T, V> =
  /** The write answered while reading back went on. */
  | { readonly kind: "answered"; readonly answered: Settled<T> }
  /** Reading back shows the change. */
  | { readonly kind: "confirmed"; readonly reading: Reading<V> }
  /** The settle time passed with no answer and no reading that shows the change. */
  | { readonly kind: "unknown"; readonly reading: Reading<V> | undefined; readonly readError: string | undefined };

/**
 * While a write is in flight, a read-back that shows the old value proves nothing: the write may
 * land a moment later. So reading back is repeated, with growing pauses, until it shows the
 * change, the write answers, or the settle time ends (then the outcome is unknown).
 */
export async function settle<T, V>(
  context: ChangeContext,
  pending: Promise<Settled<T>>,
  read: ((options: ControlCall) => Promise<Reading<V>>) | undefined,
  describeError: (error: unknown) => string,
): Promise<Settlement<T, V>> {
  const deadline = context.clock.now() + context.timing.settleMs;
  const answered = pending.then((result) => ({ kind: "answered", answered: result }) as const);
  let wait = Math.min(5_000, Math.max(50, context.timing.answerMs / 4));
  let last: Reading<V> | undefined;
  let readError: string | undefined;
  for (;;) {
    const left = deadline - context.clock.now();
    if (left <= 0) return { kind: "unknown", reading: last, readError };
    if (read) {
      // Each read ends by the deadline; a read still running when the write answers is dropped.
      const stop = new AbortController();
      const timer = pause(context.clock, left);
      void timer.done.then(() => stop.abort());
      const signal = context.signal ? AbortSignal.any([context.signal, stop.signal]) : stop.signal;
      const reading = read({ ...callOptions(context), signal }).then(
        (value) => ({ kind: "read", value }) as const,
        (error: unknown) => ({ kind: "failed", error }) as const,
      );
      const first = await Promise.race([answered, reading]);
      const cutByDeadline = stop.signal.aborted;
      timer.cancel();
      stop.abort();
      if (first.kind === "answered") return first;
      if (first.kind === "failed") {
        if (!cutByDeadline) readError = describeError(first.error);
      } else {
        last = first.value;
        if (first.value.matches) return { kind: "confirmed", reading: first.value };
      }
    }
    const sleep = pause(context.clock, Math.max(0, Math.min(wait, deadline - context.clock.now())));
    const woke = await Promise.race([answered, sleep.done.then(() => undefined)]);
    sleep.cancel();
    if (woke) return woke;
    wait *= 2;
  }
}
