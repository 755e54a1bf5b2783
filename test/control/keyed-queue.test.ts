import { describe, expect, it } from "vitest";
import { KeyedQueue } from "../../src/control/keyed-queue.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("KeyedQueue", () => {
  it("runs one task at a time per key, in order, even after a failure", async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    let release = () => {};
    const first = queue.run("a", async () => {
      log.push("first start");
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      log.push("first end");
      throw new Error("first failed");
    });
    const second = queue.run("a", async () => {
      log.push("second");
      return 2;
    });
    const other = queue.run("b", async () => {
      log.push("other");
      return 3;
    });
    await tick();
    expect(log).toEqual(["first start", "other"]);
    release();
    await expect(first).rejects.toThrow("first failed");
    expect(await second).toBe(2);
    expect(await other).toBe(3);
    expect(log).toEqual(["first start", "other", "first end", "second"]);
  });
});
