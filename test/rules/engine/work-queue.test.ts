import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { WorkQueue } from "../../../src/rules/engine/work-queue.js";

/** A step that waits until the test lets it go: a slow step without waiting on the wall clock. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

describe("the engine's work queue", () => {
  it("runs steps one at a time in order; a failing step is logged and the next still runs", async () => {
    const logs: string[] = [];
    const queue = new WorkQueue(pino({}, { write: (line: string) => logs.push(line) }));
    const done: string[] = [];
    const slow = gate();
    void queue.enqueue(async () => {
      await slow.wait;
      done.push("slow");
    });
    void queue.enqueue(async () => {
      throw new Error("boom");
    });
    void queue.enqueue(async () => {
      done.push("after");
      void queue.enqueue(async () => {
        done.push("queued by a step");
      });
    });
    slow.open();
    await queue.idle();
    expect(done).toEqual(["slow", "after", "queued by a step"]);
    expect(logs.join("")).toContain("boom");
  });

  it("after close(), no step starts; the one running finishes", async () => {
    const queue = new WorkQueue(pino({ enabled: false }));
    const done: string[] = [];
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = gate();
    void queue.enqueue(async () => {
      started();
      await slow.wait;
      done.push("running");
    });
    void queue.enqueue(async () => {
      done.push("queued");
    });
    await running;
    const closing = queue.close();
    slow.open();
    await closing;
    expect(queue.closed).toBe(true);
    await queue.enqueue(async () => {
      done.push("late");
    });
    expect(done).toEqual(["running"]);
  });
});
