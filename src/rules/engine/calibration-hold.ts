import type { ExplainedSlot } from "../../optimiser/index.js";
import { SLOT_MS } from "../../time/index.js";
import type { Action } from "../file/action-schema.js";
import type { Rule } from "../file/schema.js";

/** What the plan says, and the log once, while the watched inverter's battery calibrates. */
export const CALIBRATION_HOLDING = "calibration running: holding";

/** The Plan page's and `rules plan`'s line while it runs: the windows shown wait for its end. */
export const CALIBRATION_PLAN_NOTE = `${CALIBRATION_HOLDING}: the inverter's battery calibration runs, so no window opens until it ends; the windows below are for after it`;

/** Why a window open when a calibration starts ends early: its restore and its close say it. */
export const CALIBRATION_ENDS_WINDOW = `${CALIBRATION_HOLDING}: the inverter's battery calibration started, so this window ends early and what it changed is put back`;

/** A cron or state trigger's run while the calibration runs: not done, and why. */
export function calibrationHeldTrigger(why: "cron" | "state"): string {
  return `${why} trigger: held, ${CALIBRATION_HOLDING} (the inverter's battery calibrates; its actions are not sent)`;
}

/** Whether an action changes this inverter (a preset, a setting or a snapshot on it). */
function changesInverter(action: Action, serial: string, defaultInverter: string | undefined): boolean {
  if (action.preset === undefined && action.setting === undefined && action.snapshot === undefined) return false;
  const target = action.inverter ?? defaultInverter;
  return target !== undefined && target.toLowerCase() === serial.toLowerCase();
}

/**
 * Whether a rule's windows would change the calibrating inverter, so none of them opens while it
 * calibrates (a charge or export window would stop the calibration's own charge and discharge).
 * A rule without actions of its own (an optimise rule) takes its windows' actions from the plan,
 * which set the inverter: it is held as well.
 */
export function heldByCalibration(rule: Rule, serial: string, defaultInverter: string | undefined): boolean {
  if (rule.do.length === 0) return true;
  return rule.do.some((action) => changesInverter(action, serial, defaultInverter));
}

/**
 * An optimise rule's plan while the calibration runs: its half-hour now holds and says why; the
 * rest is planned again once the calibration ends, so it is left out rather than shown as if it
 * would run. Without a row for now (no prices), nothing is shown.
 */
export function heldPlan(explained: readonly ExplainedSlot[], now: number): ExplainedSlot[] {
  const current = explained.find((row) => row.start <= now && now < row.start + SLOT_MS);
  return current ? [{ ...current, action: "hold", reason: CALIBRATION_HOLDING }] : [];
}
