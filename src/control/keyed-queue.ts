/** Runs tasks one at a time per key, in the order they came; different keys run in parallel. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    return this.runHolding(key, async () => ({ value: await task() }));
  }

  /**
   * Like run(), but the task may hand back `hold`: its caller has the value at once, while the
   * next task for the key waits for `hold` too (a write whose answer is still to come).
   */
  runHolding<T>(key: string, task: () => Promise<{ value: T; hold?: Promise<unknown> | undefined }>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const started = previous.then(task);
    const tail = started.then((done) => done.hold?.then(ignore, ignore), ignore);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return started.then((done) => done.value);
  }

  /** Resolves once every task, and everything a task holds, has finished. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}

function ignore(): void {}
