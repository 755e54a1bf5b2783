import { describe, expect, it } from "vitest";
import { WindowBook } from "../../../src/rules/engine/window-book.js";
import type { PlannedWindow } from "../../../src/rules/planners/rule-windows.js";

const HOUR = 3_600_000;
const planned = (rule: string, start: number, end: number, period = `0:${end}`): PlannedWindow => ({
  rule,
  start: start * HOUR,
  end: end * HOUR,
  trigger: 0,
  period,
  label: "cheapest",
  averagePrice: 0.1,
  cost: undefined,
  cheapImport: true,
  plan: {},
});
const always = () => true;

describe("the window book", () => {
  it("opens a planned window once, and keeps it through a replan once it has begun", () => {
    const book = new WindowBook();
    book.replan("night", [planned("night", 1, 3, "p1"), planned("night", 25, 27, "p2")], 0);
    expect(book.nextDue(0, always)).toBe(1 * HOUR);
    const due = book.dueToOpen("night", 1 * HOUR);
    expect(due?.start).toBe(1 * HOUR);
    book.openPlanned("night", due as PlannedWindow);
    expect(book.dueToOpen("night", 2 * HOUR)).toBeUndefined();
    // New prices move both windows: the one under way stays, the later one moves.
    book.replan("night", [planned("night", 2, 4, "p1"), planned("night", 26, 28, "p2")], 2 * HOUR);
    expect(book.nextPlanned("night", 2 * HOUR)?.start).toBe(1 * HOUR);
    expect(book.cheapWindows(2 * HOUR, always).map((window) => window.start)).toEqual([1 * HOUR, 26 * HOUR]);
    expect(book.nextDue(2 * HOUR, always)).toBe(3 * HOUR);
    expect(book.ended(3 * HOUR)).toEqual(["night"]);
  });

  it("a switched-off rule's next window is not waited for", () => {
    const book = new WindowBook();
    book.replan("night", [planned("night", 1, 3)], 0);
    expect(book.nextDue(0, () => false)).toBe(Number.POSITIVE_INFINITY);
    expect(book.cheapWindows(0, () => false)).toEqual([]);
  });

  it("the higher priority holds a control until its claim ends or its window closes", () => {
    const book = new WindowBook();
    const open = book.openAt("low", { start: 0, end: 4 * HOUR });
    expect(
      book.claim("preset:SA1:timed-charge", { rule: "low", priority: 1, winsOver: [], until: 4 * HOUR }, 0).granted,
    ).toBe(true);
    open.controls.add("preset:SA1:timed-charge");
    book.openAt("high", { start: HOUR, end: 6 * HOUR });
    const answer = book.claim(
      "preset:SA1:timed-charge",
      { rule: "high", priority: 5, winsOver: [], until: 6 * HOUR },
      HOUR,
    );
    expect(answer).toEqual({ granted: true, displaced: { rule: "low", priority: 1, winsOver: [], until: 4 * HOUR } });
    expect(
      book.claim("preset:SA1:timed-charge", { rule: "low", priority: 1, winsOver: [], until: 4 * HOUR }, HOUR).granted,
    ).toBe(false);
    expect(book.heldByOther("low", 2 * HOUR)?.holder.rule).toBe("high");
    book.close("high");
    expect(book.heldByOther("low", 2 * HOUR)).toBeUndefined();
    book.extend("low", 5 * HOUR);
    expect(book.openOf("low")?.end).toBe(5 * HOUR);
  });

  it("between equal priorities only the rule whose wins_over names the holder takes the control", () => {
    const book = new WindowBook();
    const control = "setting:SA1:71";
    expect(book.claim(control, { rule: "a", priority: 0, winsOver: [], until: 4 * HOUR }, 0).granted).toBe(true);
    expect(book.claim(control, { rule: "b", priority: 0, winsOver: [], until: 4 * HOUR }, HOUR)).toMatchObject({
      granted: false,
      holder: { rule: "a" },
    });
    expect(book.claim(control, { rule: "c", priority: 0, winsOver: ["a"], until: 4 * HOUR }, HOUR)).toMatchObject({
      granted: true,
      displaced: { rule: "a" },
    });
  });

  it("windows that end together close the last opened first", () => {
    const book = new WindowBook();
    book.openAt("first", { start: 0, end: 2 * HOUR });
    book.openAt("second", { start: HOUR, end: 2 * HOUR });
    expect(book.ended(2 * HOUR)).toEqual(["second", "first"]);
  });
});
