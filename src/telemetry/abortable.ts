import { Observable } from "rxjs";

/**
 * A promise-returning call as an Observable that aborts the call when unsubscribed, or when
 * `parent` (if any) aborts, so that stop() abandons in-flight requests instead of waiting for
 * them. Without a parent no listener is added anywhere: a fleet's hundreds of polls in flight
 * must not each hang one on a shared signal.
 */
export function fromAbortable<T>(call: (signal: AbortSignal) => Promise<T>, parent?: AbortSignal): Observable<T> {
  return new Observable<T>((subscriber) => {
    const controller = new AbortController();
    const abort = () => controller.abort(parent?.reason);
    if (parent?.aborted) abort();
    else parent?.addEventListener("abort", abort, { once: true });
    call(controller.signal).then(
      (value) => {
        subscriber.next(value);
        subscriber.complete();
      },
      (error: unknown) => subscriber.error(error),
    );
    return () => {
      parent?.removeEventListener("abort", abort);
      controller.abort();
    };
  });
}
