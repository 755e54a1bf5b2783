import { describe, expect, it } from "vitest";
import type { ModeWindow } from "../../src/rules/planners/optimise-windows.js";
import { replanWindow, TARGET_STEP_PERCENT } from "../../src/rules/planners/window-replan.js";

const SLOT = 30 * 60_000;
const START = Date.UTC(2026, 0, 15, 1, 0);
const held: ModeWindow = { start: START, end: START + 4 * SLOT, mode: "charge", targetSoc: 80, reachSoc: 95 };
/** The new plan's window covering now (a half-hour into the held one). */
const next = (change: Partial<ModeWindow>): ModeWindow => ({
  start: START + SLOT,
  end: START + 4 * SLOT,
  mode: "charge",
  targetSoc: 80,
  reachSoc: 95,
  ...change,
});

describe("an open window following a new plan", () => {
  it("writes nothing when the plan leaves it as it is or moves its target by less than the step", () => {
    expect(replanWindow(held, next({}))).toEqual({ kind: "keep", window: held });
    const small = replanWindow(held, next({ targetSoc: 80 + TARGET_STEP_PERCENT - 1 }));
    expect(small).toEqual({ kind: "keep", window: held });
  });

  it("writes a target moved by the step or more, keeping the window's start", () => {
    const moved = replanWindow(held, next({ targetSoc: 90 }));
    expect(moved).toEqual({
      kind: "rewrite",
      window: { ...held, targetSoc: 90 },
      why: "charge target 80% → 90%",
    });
  });

  it("leaves a target alone when full power cannot reach either before the window ends", () => {
    // From where the battery is, full power reaches 70% by the end: 80% and 95% both charge flat out.
    expect(replanWindow(held, next({ targetSoc: 95, reachSoc: 70 }))).toEqual({
      kind: "keep",
      window: { ...held, reachSoc: 70 },
    });
    // An export stops where it must only if the target is above what full power leaves.
    const exporting: ModeWindow = { ...held, mode: "export", targetSoc: 30, reachSoc: 20 };
    const deeper = replanWindow(exporting, next({ mode: "export", targetSoc: 15, reachSoc: 40 }));
    expect(deeper.kind).toBe("keep");
    expect(replanWindow(exporting, next({ mode: "export", targetSoc: 15, reachSoc: 20 })).kind).toBe("rewrite");
  });

  it("writes a later end but not an earlier one (the restore at the end puts the preset back)", () => {
    const later = replanWindow(held, next({ end: START + 6 * SLOT }));
    expect(later).toMatchObject({ kind: "rewrite", window: { start: START, end: START + 6 * SLOT, targetSoc: 80 } });
    expect(replanWindow(held, next({ end: START + 2 * SLOT }))).toEqual({
      kind: "keep",
      window: { ...held, end: START + 2 * SLOT },
    });
  });

  it("ends the window when the plan wants another mode or none now", () => {
    expect(replanWindow(held, next({ mode: "export", targetSoc: 20 }))).toEqual({
      kind: "end",
      why: "charge to 80% ends, export to 20% now",
    });
    expect(replanWindow(held, undefined)).toEqual({ kind: "end", why: "charge to 80% ends, self-consumption now" });
  });

  it("carries a hold on to the plan's end with nothing to write", () => {
    const hold: ModeWindow = { ...held, mode: "hold", targetSoc: 60, reachSoc: 60 };
    const later = replanWindow(hold, next({ mode: "hold", targetSoc: 75, reachSoc: 75, end: START + 8 * SLOT }));
    expect(later).toEqual({ kind: "keep", window: { ...hold, end: START + 8 * SLOT } });
  });
});
