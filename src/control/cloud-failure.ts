import { PathFailure } from "../vocabulary/index.js";

export interface Failure {
  readonly message: string;
  /** The request may have reached the device, so the change must be read back before anything else. */
  readonly mayHaveApplied: boolean;
}

/** Connection errors that mean the request never left this machine. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);

function causeCode(error: PathFailure): string | undefined {
  const code = (error.cause as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

/** Whether a request that failed this way may still have reached the device. */
function mayHaveReached(error: PathFailure): boolean {
  switch (error.kind) {
    case "timeout":
      return true;
    case "transport": {
      const code = causeCode(error);
      return code === undefined || !NOT_SENT.has(code);
    }
    // Taken by the other side, which may have relayed it to the device before failing.
    case "server":
      return true;
    // An answer we could not read: the request was taken.
    case "response-shape":
      return true;
    // Refused before it was sent, or answered with a refusal (maintenance included: not taken).
    case "invalid-request":
    case "unavailable":
    case "unauthorised":
    case "subscription-required":
    case "forbidden":
    case "not-found":
    case "bad-request":
    case "invalid-data":
    case "rate-limited":
    case "unexpected-answer":
      return false;
  }
}

/** What a thrown error means for a change that was being sent. */
export function describeFailure(error: unknown): Failure {
  if (isAbort(error)) return { message: "cancelled while it was being sent", mayHaveApplied: true };
  if (error instanceof PathFailure) return { message: error.message, mayHaveApplied: mayHaveReached(error) };
  return {
    message: `unexpected error: ${error instanceof Error ? error.message : String(error)}`,
    mayHaveApplied: false,
  };
}

/** A failure in words: a path's failure as above, any other error (a refusal read back) by its message. */
export function failureText(error: unknown): string {
  if (error instanceof PathFailure || isAbort(error)) return describeFailure(error).message;
  return error instanceof Error ? error.message : String(error);
}
