import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { WorkQueue } from "../../../src/rules/engine/work-queue.js";

describe("the engine's work queue", () => {
  it("runs steps one at a time in order; a failing step is logged and the next still runs", async () => {
    const logs: string[] = [];
    const queue = new WorkQueue(pino({}, { write: (line: string) => logs.push(line) }));
    const done: string[] = [];
    void queue.enqueue(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
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
    void queue.enqueue(async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 5));
      done.push("running");
    });
    void queue.enqueue(async () => {
      done.push("queued");
    });
    await running;
    await queue.close();
    expect(queue.closed).toBe(true);
    await queue.enqueue(async () => {
      done.push("late");
    });
    expect(done).toEqual(["running"]);
  });
});
