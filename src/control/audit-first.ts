import { StoreError } from "../store/index.js";
import type { ChangeOutcome } from "./change.js";

/** What a begun audit row says until the change's outcome replaces it. */
export const OUTCOME_PENDING =
  "sent, outcome not recorded yet: if this stays, energy2mqtt stopped before the answer came and the change may or may not have happened";

/**
 * The answer to a change whose audit row could not be written before sending: nothing is sent,
 * since the audit log is a promise that every change is recorded. The next change tries again.
 */
export function auditUnwritable(error: unknown): ChangeOutcome {
  return {
    ok: false,
    verified: false,
    skipped: false,
    refused: true,
    message: `not applied: the audit log cannot be written: ${why(error)}; nothing was sent, and changes are refused until it can be written`,
  };
}

function why(error: unknown): string {
  if (!(error instanceof StoreError)) return error instanceof Error ? error.message : String(error);
  if (error.kind === "full")
    return `disk full at ${error.path} (free some space, or set store.path to a disk with room)`;
  return error.message;
}
