import { describe, expect, it } from "vitest";
import { estimateMs, waitText } from "../../src/sources/cloud/archive/progress.js";
import { progressView } from "../../src/sources/cloud/index.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";
import type { RequestBudgetState } from "../../src/vocabulary/request-budget.js";
import { capture } from "../helpers/capture.js";

describe("archive progress", () => {
  it("estimates the time left at the budget's pace when requests come faster than it allows", () => {
    // 600 left at 300 a minute: two minutes, however fast the first 100 went.
    expect(estimateMs(600, 100, 1_000, 300)).toBe(120_000);
    // Slower than the budget: the pace seen so far.
    expect(estimateMs(100, 100, 100_000, 300)).toBe(100_000);
    expect(estimateMs(0, 100, 1_000, 300)).toBe(0);
  });

  it("prints plain lines at the interval when stderr is not a terminal", () => {
    const out = capture();
    const clock = new VirtualClock(0);
    const view = progressView(out.stream, { tty: false, perMinute: () => 300, intervalMs: 10_000, clock });
    const task = { kind: "inverter.point" as const, device: "SD2024G001", days: ["2025-03-16"] };
    view.update({ requestsDone: 0, requestsPlanned: 600, startedAt: 0 });
    clock.advanceTo(5_000);
    view.update({ requestsDone: 50, requestsPlanned: 600, startedAt: 0, current: task });
    clock.advanceTo(10_000);
    view.update({ requestsDone: 100, requestsPlanned: 600, startedAt: 0, current: task });
    view.end();
    const lines = out.text().trimEnd().split("\n");
    expect(lines[0]).toBe("archive [------------------------] 0/600 requests 0%  about 2m00s left");
    expect(lines[1]).toBe(
      "archive [####--------------------] 100/600 requests 16%  about 1m40s left  inverter.point SD2024G001 2025-03-16",
    );
    expect(lines).toHaveLength(2);
  });

  it("redraws one line in place on a terminal", () => {
    const out = capture();
    const view = progressView(out.stream, { tty: true, perMinute: () => 300, clock: new VirtualClock(0) });
    view.update({ requestsDone: 3, requestsPlanned: 6, startedAt: 0 });
    view.end();
    expect(out.text()).toBe(
      "\r\x1b[Karchive [############------------] 3/6 requests 50%  about 1s left\r\x1b[Karchive [############------------] 3/6 requests 50%  about 1s left\n",
    );
  });

  describe("while the rate budget holds every request back", () => {
    const held = (over: Partial<RequestBudgetState> = {}): RequestBudgetState => ({
      limit: 300,
      configured: 300,
      rateLimitedInARow: 0,
      used: 300,
      inFlight: 0,
      waiting: 4,
      windowEndsAt: 42_000,
      pausedUntil: 0,
      expectedLive: 0,
      ...over,
    });

    it("says for how long and why", () => {
      expect(waitText(held(), 0)).toBe("waiting 42 s for the rate window (300 requests/min)");
      expect(waitText(held({ pausedUntil: 30_000, windowEndsAt: 30_000 }), 0)).toMatch(/^waiting 30 s: .*\(429\)/);
      // Not waiting: a request is under way, nothing queued, or the window is over.
      expect(waitText(held({ inFlight: 1 }), 0)).toBeUndefined();
      expect(waitText(held({ waiting: 0 }), 0)).toBeUndefined();
      expect(waitText(held(), 42_000)).toBeUndefined();
    });

    it("counts down on a terminal, and prints one plain line when a wait starts elsewhere", () => {
      const clock = new VirtualClock(0);
      const progress = { requestsDone: 300, requestsPlanned: 600, startedAt: 0 };
      const tty = capture();
      const terminal = progressView(tty.stream, {
        tty: true,
        perMinute: () => 300,
        clock,
        budget: () => held(),
      });
      terminal.update(progress);
      clock.advance(1_000);
      clock.advance(1_000);
      terminal.end();
      expect(tty.text()).toContain("waiting 41 s for the rate window (300 requests/min)");
      expect(tty.text()).toContain("waiting 40 s for the rate window (300 requests/min)");

      const plain = capture();
      const log = progressView(plain.stream, {
        tty: false,
        perMinute: () => 300,
        clock,
        budget: () => held(),
      });
      log.update(progress);
      clock.advance(5_000);
      // Five ticks of a wait that goes on: still the one line (end() then draws the last state).
      expect(plain.text().match(/waiting \d+ s for the rate window/g)).toHaveLength(1);
      log.end();
    });

    it("says so even before the first progress, while the account's devices are read", () => {
      const out = capture();
      const clock = new VirtualClock(0);
      // The window ends 43 s from the start: 42 s from the first tick, a second in.
      const budget = () => held({ windowEndsAt: 43_000 });
      const view = progressView(out.stream, { tty: false, perMinute: () => 300, clock, budget });
      clock.advance(1_000);
      view.end();
      expect(out.text()).toBe(
        "archive: reading the account's devices; waiting 42 s for the rate window (300 requests/min)\n",
      );
    });
  });
});
