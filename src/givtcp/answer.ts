import type { ChangeOutcome } from "../control/index.js";
import type { WritePlan } from "./writes.js";

/** GivTCP's answer to every write, success or not: `{"result": "..."}` with HTTP 200. */
export interface GivtcpAnswer {
  readonly result: string;
}

/**
 * The plan's outcomes as GivTCP words them: a success when every change was applied or already
 * held; else its failure words with the gate's reason (a refusal says what is allowed).
 */
export function answerOf(plan: WritePlan, outcomes: readonly ChangeOutcome[]): GivtcpAnswer {
  const failed = outcomes.find((outcome) => !outcome.ok);
  if (!failed) return { result: plan.success };
  return { result: `${plan.failure}: ${failed.message}` };
}
