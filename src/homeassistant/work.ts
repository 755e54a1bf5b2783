import { type Clock, later } from "../time/index.js";

/** Commands and requests being handled, so that a stop lets them finish (within a limit). */
export class WorkInFlight {
  private readonly work = new Set<Promise<void>>();
  stopped = false;

  track(work: Promise<void>): void {
    this.work.add(work);
    void work.finally(() => this.work.delete(work));
  }

  /** Resolves when all work under way has finished, or `ms` has passed on `clock`. */
  async settle(clock: Clock, ms: number): Promise<void> {
    this.stopped = true;
    let cancel: (() => void) | undefined;
    await Promise.race([
      Promise.allSettled([...this.work]),
      new Promise<void>((resolve) => {
        cancel = later(clock, ms, resolve);
      }),
    ]);
    cancel?.();
  }
}
