import { CloudError, InvalidRequestError, ResponseShapeError, ServerError, TransportError } from "../cloud/index.js";

export interface Failure {
  readonly message: string;
  /** The request may have reached the device, so the change must be read back before anything else. */
  readonly mayHaveApplied: boolean;
}

/** Connection errors that mean the request never left this machine. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);

function causeCode(error: TransportError): string | undefined {
  const code = (error.cause as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

/** What a thrown error means for a change that was being sent. */
export function describeFailure(error: unknown): Failure {
  if (isAbort(error)) return { message: "cancelled while it was being sent", mayHaveApplied: true };
  if (error instanceof InvalidRequestError) return { message: error.message, mayHaveApplied: false };
  if (error instanceof TransportError) {
    const code = causeCode(error);
    return { message: error.message, mayHaveApplied: error.timedOut || code === undefined || !NOT_SENT.has(code) };
  }
  // 503 is maintenance: the request was not taken. Other 5xx may have been relayed to the device.
  if (error instanceof ServerError) return { message: error.message, mayHaveApplied: error.status !== 503 };
  // A 2xx answer we could not read: the request was taken.
  if (error instanceof ResponseShapeError) return { message: error.message, mayHaveApplied: true };
  if (error instanceof CloudError) return { message: error.message, mayHaveApplied: false };
  return {
    message: `unexpected error: ${error instanceof Error ? error.message : String(error)}`,
    mayHaveApplied: false,
  };
}

/** A failure in words: a cloud error as above, any other error (a refusal read back) by its message. */
export function failureText(error: unknown): string {
  if (error instanceof CloudError || isAbort(error)) return describeFailure(error).message;
  return error instanceof Error ? error.message : String(error);
}
