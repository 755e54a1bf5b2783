import { describe, expect, it } from "vitest";
import { progressView } from "../../src/archive/index.js";
import { estimateMs } from "../../src/archive/progress.js";
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
    let now = 0;
    const view = progressView(out.stream, { tty: false, perMinute: () => 300, intervalMs: 10_000, now: () => now });
    const task = { kind: "inverter.point" as const, device: "SD2024G001", days: ["2025-03-16"] };
    view.update({ requestsDone: 0, requestsPlanned: 600, startedAt: 0 });
    now = 5_000;
    view.update({ requestsDone: 50, requestsPlanned: 600, startedAt: 0, current: task });
    now = 10_000;
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
    const view = progressView(out.stream, { tty: true, perMinute: () => 300, now: () => 0 });
    view.update({ requestsDone: 3, requestsPlanned: 6, startedAt: 0 });
    view.end();
    expect(out.text()).toBe(
      "\r\x1b[Karchive [############------------] 3/6 requests 50%  about 1s left\r\x1b[Karchive [############------------] 3/6 requests 50%  about 1s left\n",
    );
  });
});
