import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type Permit, type Priority, RateBudget } from "../../src/cloud/rate-budget.js";

const HEADERS = { headers: {}, status: 200 };

/** Acquires without awaiting, recording the order in which permits are granted. */
function track(budget: RateBudget) {
  const granted: string[] = [];
  const permits: Permit[] = [];
  const take = (priority: Priority, label: string, signal?: AbortSignal) =>
    budget.acquire(priority, signal).then((permit) => {
      granted.push(label);
      permits.push(permit);
      return permit;
    });
  return { granted, permits, take };
}

describe("rate budget", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("grants at most `limit` requests in one window and the rest when the window ends", async () => {
    const budget = new RateBudget({ limit: 3, windowMs: 60_000, reserve: { live: 0, background: 0 } });
    const { granted, permits, take } = track(budget);
    for (const label of ["a", "b", "c", "d", "e"]) void take("live", label);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(["a", "b", "c"]);
    for (const permit of permits) permit.settle(HEADERS);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(granted).toEqual(["a", "b", "c"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("anchors the window at the first answer, so latency cannot open it early", async () => {
    const budget = new RateBudget({ limit: 1, windowMs: 10_000, reserve: { live: 0, background: 0 } });
    const { granted, permits, take } = track(budget);
    void take("live", "first");
    void take("live", "second");
    await vi.advanceTimersByTimeAsync(0);
    // The first answer takes 4 s to come back; the server opened its window somewhere in those 4 s.
    await vi.advanceTimersByTimeAsync(4_000);
    permits[0]?.settle(HEADERS);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(granted).toEqual(["first"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toEqual(["first", "second"]);
  });

  it("never grants more than the limit within one window's length, when a late answer put our window after the server's", async () => {
    const budget = new RateBudget({ limit: 4, windowMs: 60_000, reserve: { live: 0, background: 0 } });
    const { granted, permits, take } = track(budget);
    const grantedAt: number[] = [];
    const takeAt = (label: string) => void take("live", label).then(() => grantedAt.push(Date.now()));
    takeAt("a");
    takeAt("b");
    await vi.advanceTimersByTimeAsync(5_000);
    // A busy event loop reads the first answer 5 s late: our window runs 5 s after the server's.
    for (const permit of permits.splice(0)) permit.settle(HEADERS);
    await vi.advanceTimersByTimeAsync(45_000);
    takeAt("c");
    takeAt("d");
    await vi.advanceTimersByTimeAsync(0);
    for (const permit of permits.splice(0)) permit.settle(HEADERS);
    for (const label of ["e", "f", "g", "h"]) takeAt(label);
    // Our window ends at 65 s; a and b (sent at 0) left the last minute at 60 s, c and d (at 50 s) not until 110 s.
    await vi.advanceTimersByTimeAsync(15_000);
    expect(granted).toEqual(["a", "b", "c", "d", "e", "f"]);
    await vi.advanceTimersByTimeAsync(45_000);
    expect(granted).toEqual(["a", "b", "c", "d", "e", "f", "g", "h"]);
    for (const [i, at] of grantedAt.entries()) {
      const within = grantedAt.filter((other) => other >= at && other < at + 60_000).length;
      expect(within, `grants in the minute from grant ${i}`).toBeLessThanOrEqual(4);
    }
  });

  it("serves commands before live polling before background history", async () => {
    const budget = new RateBudget({ limit: 1, windowMs: 1_000, reserve: { live: 0, background: 0 } });
    const { granted, permits, take } = track(budget);
    void take("live", "blocker");
    await vi.advanceTimersByTimeAsync(0);
    void take("background", "history");
    void take("live", "poll");
    void take("command", "command");
    permits[0]?.settle(HEADERS);
    for (let i = 0; i < 3; i++) {
      await vi.advanceTimersByTimeAsync(1_000);
      permits[permits.length - 1]?.settle(HEADERS);
    }
    expect(granted).toEqual(["blocker", "command", "poll", "history"]);
  });

  it("keeps reserved slots for higher priorities", async () => {
    const budget = new RateBudget({ limit: 10, windowMs: 60_000, reserve: { live: 2, background: 3 } });
    const { granted, take } = track(budget);
    for (let i = 0; i < 10; i++) void take("background", `b${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(5);
    void take("live", "live1");
    void take("live", "live2");
    void take("live", "live3");
    void take("live", "live4");
    await vi.advanceTimersByTimeAsync(0);
    expect(granted.filter((g) => g.startsWith("live"))).toEqual(["live1", "live2", "live3"]);
    void take("command", "cmd1");
    void take("command", "cmd2");
    void take("command", "cmd3");
    await vi.advanceTimersByTimeAsync(0);
    expect(granted.filter((g) => g.startsWith("cmd"))).toEqual(["cmd1", "cmd2"]);
    expect(budget.state().used).toBe(10);
  });

  it("believes X-RateLimit-Remaining when the server has counted more than we have", async () => {
    const budget = new RateBudget({ limit: 300, windowMs: 60_000, reserve: { live: 0, background: 0 } });
    const { granted, permits, take } = track(budget);
    void take("live", "one");
    await vi.advanceTimersByTimeAsync(0);
    // Another process shares the token: the server has only 2 left for this window.
    permits[0]?.settle({ headers: { limit: 300, remaining: 2 }, status: 200 });
    for (const label of ["x", "y", "z"]) void take("live", label);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toEqual(["one", "x", "y"]);
  });

  it("adopts a lower X-RateLimit-Limit from the server", async () => {
    const budget = new RateBudget({ limit: 300, windowMs: 60_000 });
    const { permits, take } = track(budget);
    void take("command", "one");
    await vi.advanceTimersByTimeAsync(0);
    permits[0]?.settle({ headers: { limit: 60, remaining: 59 }, status: 200 });
    expect(budget.state().limit).toBe(60);
  });

  it("goes back up to its configured limit when the server's loosens again, never above it", async () => {
    const budget = new RateBudget({ limit: 100, windowMs: 60_000, reserve: { live: 0, background: 0 } });
    const { permits, take } = track(budget);
    void take("command", "one");
    await vi.advanceTimersByTimeAsync(0);
    permits[0]?.settle({ headers: { limit: 1, remaining: 0 }, status: 200 });
    expect(budget.state().limit).toBe(1);
    void take("command", "two");
    await vi.advanceTimersByTimeAsync(60_000);
    permits[1]?.settle({ headers: { limit: 1_000, remaining: 999 }, status: 200 });
    expect(budget.state()).toMatchObject({ limit: 100, configured: 100 });
  });

  it("sizes its reserves to a limit learnt from the server, so background work still gets most of it", async () => {
    // Configured far above the server's limit: reserves worked out from 100,000 would starve background.
    const budget = new RateBudget({ limit: 100_000, windowMs: 60_000 });
    const { granted, permits, take } = track(budget);
    void take("command", "first");
    await vi.advanceTimersByTimeAsync(0);
    permits[0]?.settle({ headers: { limit: 300, remaining: 299 }, status: 200 });
    for (let i = 0; i < 50; i++) void take("background", `b${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted).toHaveLength(51);
  });

  it("pauses everything after a 429 until the window ends", async () => {
    const budget = new RateBudget({ limit: 100, windowMs: 60_000 });
    const { granted, permits, take } = track(budget);
    void take("command", "one");
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(1_000);
    permits[0]?.settle({ headers: { remaining: 0 }, status: 429 });
    budget.pause();
    void take("command", "two");
    await vi.advanceTimersByTimeAsync(59_999);
    expect(granted).toEqual(["one"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toEqual(["one", "two"]);
  });

  it("honours a Retry-After later than the window end", async () => {
    const budget = new RateBudget({ limit: 100, windowMs: 10_000 });
    const { granted, permits, take } = track(budget);
    void take("command", "one");
    await vi.advanceTimersByTimeAsync(0);
    permits[0]?.settle({ headers: {}, status: 429 });
    budget.pause(Date.now() + 30_000);
    void take("command", "two");
    await vi.advanceTimersByTimeAsync(29_999);
    expect(granted).toEqual(["one"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(granted).toEqual(["one", "two"]);
  });

  it("drops a waiter whose signal aborts", async () => {
    const budget = new RateBudget({ limit: 1, windowMs: 1_000, reserve: { live: 0, background: 0 } });
    const { granted, permits, take } = track(budget);
    void take("live", "one");
    await vi.advanceTimersByTimeAsync(0);
    const controller = new AbortController();
    const aborted = take("live", "aborted", controller.signal).catch((error: unknown) => error);
    void take("live", "three");
    controller.abort(new Error("shutting down"));
    expect(await aborted).toMatchObject({ message: "shutting down" });
    permits[0]?.settle(HEADERS);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(granted).toEqual(["one", "three"]);
  });

  it("gives background history only what the live requests planned for a window leave", async () => {
    const budget = new RateBudget({ limit: 10, windowMs: 60_000, reserve: { live: 1, background: 1 } });
    budget.expectLive(7);
    const { granted, take } = track(budget);
    for (let i = 0; i < 5; i++) void take("background", `b${i}`);
    await vi.advanceTimersByTimeAsync(0);
    // 10 less the command reserve (1) less the 7 planned live requests.
    expect(granted).toEqual(["b0", "b1"]);
    for (let i = 0; i < 8; i++) void take("live", `l${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(granted.filter((g) => g.startsWith("l"))).toHaveLength(7);
    expect(budget.allowance("background")).toBe(2);
    expect(budget.allowance("live")).toBe(9);
  });

  it("leaves no abort listener behind on a signal that many waiters share", async () => {
    const budget = new RateBudget({ limit: 50, windowMs: 60_000, reserve: { live: 0, background: 0 } });
    const shared = new AbortController();
    const { granted, permits, take } = track(budget);
    for (let i = 0; i < 200; i++) void take("live", `w${i}`, shared.signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(budget.state().waiting).toBe(150);
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(150);
    for (let window = 0; window < 3; window++) {
      for (const permit of permits) permit.settle(HEADERS);
      await vi.advanceTimersByTimeAsync(60_000);
    }
    expect(granted).toHaveLength(200);
    expect(budget.state().waiting).toBe(0);
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
  });
});
