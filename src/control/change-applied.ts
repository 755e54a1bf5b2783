import type { ChangeOutcome, ChangeRequest, Requester } from "./change.js";

/** A change request's outcome, as the control gate recorded it in the audit log. */
export interface ChangeApplied {
  readonly at: number;
  readonly request: ChangeRequest;
  readonly requester: Requester;
  readonly outcome: ChangeOutcome;
}
