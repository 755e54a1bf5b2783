import type { RemoteControlResult } from "../cloud/index.js";
import { describeFailure } from "./cloud-failure.js";
import type { Settled } from "./in-flight.js";
import { rejectionText } from "./remote-codes.js";

/**
 * What a write's answer (or its failure) means, the same for a setting and a preset: done; not
 * done, so nothing to read back (-2 offline, -3, -4, -7 locked, a request that never left); or
 * open, when only reading back can tell (-1, -5, -6, a refusal without a code, a 5xx, a timeout).
 */
export type Verdict<V> =
  | { readonly kind: "done"; readonly value: V }
  | { readonly kind: "refused"; readonly code?: number; readonly why: string }
  | { readonly kind: "open"; readonly code?: number; readonly why: string };

export function verdictOf<V>(result: Settled<RemoteControlResult<V>>): Verdict<V> {
  if (!result.ok) {
    const failure = describeFailure(result.error);
    return { kind: failure.mayHaveApplied ? "open" : "refused", why: failure.message };
  }
  const answer = result.answer;
  if (answer.ok) return { kind: "done", value: answer.value };
  return {
    kind: answer.mayHaveApplied ? "open" : "refused",
    ...(answer.code === undefined ? {} : { code: answer.code }),
    why: rejectionText(answer),
  };
}

/** The code of a verdict as outcome fields. */
export function codeOf(verdict: Verdict<unknown>): { code?: number } {
  return verdict.kind === "done" || verdict.code === undefined ? {} : { code: verdict.code };
}
