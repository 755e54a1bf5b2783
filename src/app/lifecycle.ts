import type { Logger } from "../log/log.js";
import { StartupStopped } from "./errors.js";

/**
 * What start-up undoes at the stop, last started first, and what it does the moment a stop
 * begins. A stop during start-up makes whatever start-up waits for fail at once (`alive`).
 */
export class Lifecycle {
  // What to undo, last started first; taken from the end, so what start-up adds while a stop
  // is under way is undone too.
  private readonly stack: (() => Promise<void>)[] = [];
  // What to do the moment a stop begins, before anything is undone.
  private readonly halts: (() => void)[] = [];
  // Each call drains what is left, after any drain under way: a second call undoes what start-up
  // added after the first.
  private draining = Promise.resolve();
  /** Set once start-up has finished. */
  started = false;

  constructor(
    private readonly logger: Logger,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Undone at the stop, before what was started earlier. */
  onStop(stop: () => Promise<void>): void {
    this.stack.push(stop);
  }

  /** Done the moment a stop begins, before anything is undone. */
  onHalt(halt: () => void): void {
    this.halts.push(halt);
  }

  /** Whether the stop was asked for (the caller's signal). */
  get aborted(): boolean {
    return this.signal?.aborted ?? false;
  }

  /** Halts, then undoes everything started, last first. */
  readonly stopAll = (): Promise<void> => {
    this.draining = this.draining.then(async () => {
      for (const halt of this.halts.splice(0)) halt();
      for (let stop = this.stack.pop(); stop; stop = this.stack.pop())
        await stop().catch((error: unknown) => this.logger.warn({ err: error }, "stop failed"));
    });
    return this.draining;
  };

  /** A stop during start-up: whatever start-up waits for fails at once, and what started is undone. */
  alive(): void {
    if (this.signal?.aborted) throw new StartupStopped();
  }

  /**
   * Runs start-up: a stop asked for while it runs undoes what started; a start-up that fails
   * undoes what started and throws (`StartupStopped` when the stop was asked for).
   */
  async run<T>(start: () => Promise<T>): Promise<T> {
    const onAbort = (): void => void this.stopAll();
    this.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return await start();
    } catch (error) {
      await this.stopAll();
      if (this.signal?.aborted) throw new StartupStopped();
      throw error;
    } finally {
      this.signal?.removeEventListener("abort", onAbort);
    }
  }
}
