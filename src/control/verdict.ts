import type { PathOutcome } from "../sources/index.js";
import { describeFailure } from "./cloud-failure.js";
import type { Settled } from "./in-flight.js";

/**
 * What a write's answer (or its failure) means, the same for a setting and a preset, as the path
 * said it: done; refused, so nothing to read back; or open, when only reading back can tell. A
 * request that threw is judged by what it threw (a timeout may have applied, a request that
 * never left did not).
 */
export type Verdict<V> =
  | { readonly kind: "done"; readonly value: V }
  | { readonly kind: "refused"; readonly code?: number; readonly why: string }
  | { readonly kind: "open"; readonly code?: number; readonly why: string };

export function verdictOf<V>(result: Settled<PathOutcome<V>>): Verdict<V> {
  if (!result.ok) {
    const failure = describeFailure(result.error);
    return { kind: failure.mayHaveApplied ? "open" : "refused", why: failure.message };
  }
  const answer = result.answer;
  if (answer.outcome === "done") return { kind: "done", value: answer.value };
  return {
    kind: answer.outcome,
    ...(answer.code === undefined ? {} : { code: answer.code }),
    why: answer.reason,
  };
}

/** The code of a verdict as outcome fields. */
export function codeOf(verdict: Verdict<unknown>): { code?: number } {
  return verdict.kind === "done" || verdict.code === undefined ? {} : { code: verdict.code };
}
