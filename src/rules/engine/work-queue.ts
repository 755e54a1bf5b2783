import type { Logger } from "../../log/log.js";

/** The engine's steps, one at a time and in order; a step that fails is logged and the next runs. */
export class WorkQueue {
  private tail: Promise<void> = Promise.resolve();
  private closedFlag = false;

  constructor(private readonly logger: Logger) {}

  /** True once close() was called: no step starts after that. */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** Resolves when the step has run, or was dropped because the queue closed. */
  enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.tail.then(async () => {
      if (this.closedFlag) return;
      try {
        await work();
      } catch (error) {
        this.logger.error({ err: error }, "the rules engine failed a step; it carries on");
      }
    });
    this.tail = run;
    return run;
  }

  /** Resolves when every step queued has run, including steps that those steps queued. */
  async idle(): Promise<void> {
    for (;;) {
      const queued = this.tail;
      await queued;
      if (queued === this.tail) return;
    }
  }

  /** Closes the queue at once; resolves when the step running, if any, has finished. */
  close(): Promise<void> {
    this.closedFlag = true;
    return this.tail;
  }
}
