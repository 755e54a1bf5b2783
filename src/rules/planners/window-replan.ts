import type { ModeWindow } from "./optimise-windows.js";

/**
 * The least change of an open window's percent limit worth writing, in points. The plan's SoC grid
 * (0.1 kWh, about 1% of a 10 kWh battery) moves a target by a point from one re-plan to the next
 * without anything real changing; 2 points stay above that noise.
 */
export const TARGET_STEP_PERCENT = 2;

/** What a new plan does to a window that is open. */
export type WindowReplan =
  /** Nothing to write: the window goes on as written, perhaps to a new (earlier) end. */
  | { readonly kind: "keep"; readonly window: ModeWindow }
  /** The window goes on in the same mode with a new target or a later end, to be written. */
  | { readonly kind: "rewrite"; readonly window: ModeWindow; readonly why: string }
  /** The plan wants another mode now (or none): the window ends now and what it changed is put back. */
  | { readonly kind: "end"; readonly why: string };

/**
 * How the open window `held` (as written to the inverter) follows the new plan, whose window
 * covering now is `next` (undefined: the plan says self-consumption now). The same mode goes on:
 * its end follows the plan; its target is written again only when it moves by `step` points or
 * more and the old or new target lies within what full power reaches by the window's end (beyond
 * that the battery does the same either way). A later end is written (the inverter's slot would
 * stop at the old one); an earlier one is not (the restore at the end puts everything back).
 */
export function replanWindow(
  held: ModeWindow,
  next: ModeWindow | undefined,
  step: number = TARGET_STEP_PERCENT,
): WindowReplan {
  if (!next || next.mode !== held.mode)
    return { kind: "end", why: `${modeText(held)} ends, ${next ? modeText(next) : "self-consumption"} now` };
  const end = next.end;
  if (held.mode === "hold") return { kind: "keep", window: { ...held, end } };
  const within =
    held.mode === "charge"
      ? Math.min(held.targetSoc, next.targetSoc) < next.reachSoc
      : Math.max(held.targetSoc, next.targetSoc) > next.reachSoc;
  const retarget = Math.abs(next.targetSoc - held.targetSoc) >= step && within;
  const window = { ...held, end, targetSoc: retarget ? next.targetSoc : held.targetSoc, reachSoc: next.reachSoc };
  if (retarget) return { kind: "rewrite", window, why: `${held.mode} target ${held.targetSoc}% → ${next.targetSoc}%` };
  if (end > held.end) return { kind: "rewrite", window, why: `${modeText(held)} runs longer` };
  return { kind: "keep", window };
}

function modeText(window: ModeWindow): string {
  return window.mode === "hold" ? "hold" : `${window.mode} to ${window.targetSoc}%`;
}
