/**
 * Why a request on a path to the house failed, as the daemon names it. The control gate, the
 * bridge's device actions and `source: auto` decide by the kind (may the change have reached the
 * device, is the path away, was the request refused), never by one path's error classes.
 *
 * The cloud client's errors extend PathFailure rather than being converted in its adapter: they
 * are thrown deep in its HTTP layer and travel through every section, pager and retry, up through
 * resources the adapter passes on as they are; extending keeps each error's message (which users
 * read in answers, the audit log and the CLI) and class (which the cloud's own commands use) as
 * they are, while everything outside the cloud reads only the kind, as the LAN's decoder too
 * answers in the daemon's words.
 */
export const FAILURE_KINDS = [
  /** The path did not accept who is asking (a wrong token). */
  "unauthorised",
  /** The account lacks the subscription the path requires. */
  "subscription-required",
  /** Who is asking may not do this. */
  "forbidden",
  /** The thing named is not there. */
  "not-found",
  /** The request was well formed but failed. */
  "bad-request",
  /** The other side refused the request's data (e.g. a name already taken). */
  "invalid-data",
  /** The request breaks the rules the daemon knows: refused before it was sent. */
  "invalid-request",
  /** Too many requests: the path is paused for a while. */
  "rate-limited",
  /** The other side is down for maintenance: it did not take the request. */
  "unavailable",
  /** The other side failed after it took the request, which may have been passed on to the device. */
  "server",
  /** No answer before the timeout: the request may have arrived. */
  "timeout",
  /** No answer at all (refused, reset, unreachable); the cause says how far the request got. */
  "transport",
  /** An answer came but did not fit its documented shape: the request was taken. */
  "response-shape",
  /** An answer the path has no meaning for. */
  "unexpected-answer",
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

export interface FailureDetails {
  /** The HTTP status of the answer, on a path that has one. */
  readonly status?: number;
  /** What failed underneath (a socket's error). */
  readonly cause?: unknown;
}

export class PathFailure extends Error {
  override readonly name: string = "PathFailure";
  readonly status: number | undefined;
  constructor(
    readonly kind: FailureKind,
    message: string,
    details: FailureDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
  }
}
