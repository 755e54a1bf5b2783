import type { CommandResultBody } from "./types.js";

/** What a command did on the charger, before it becomes a result body. */
export type Outcome =
  | { code: 0 }
  | { code: -3 | -4; message: string }
  /** The charger answered an OCPP CallError with this error code. */
  | { code: -5; callError: string; message: string };

export const OK: Outcome = { code: 0 };

export function invalid(message: string): Outcome {
  return { code: -3, message };
}

export function failure(message: string): Outcome {
  return { code: -4, message };
}

export function callError(errorCode: string, message: string): Outcome {
  return { code: -5, callError: errorCode, message };
}

export function resultBody(outcome: Outcome): CommandResultBody {
  switch (outcome.code) {
    case 0:
      return { code: 0, success: true, message: "Command sent" };
    case -5:
      return {
        code: -5,
        success: false,
        message: "CallError",
        error: { code: outcome.callError, type: "CallError", message: outcome.message },
      };
    default:
      return { code: outcome.code, success: false, message: outcome.message };
  }
}

export const TIMEOUT_BODY: CommandResultBody = { code: -1, success: false, message: "Charger did not respond in time" };
export const OFFLINE_BODY: CommandResultBody = { code: -2, success: false, message: "Charger offline" };

/** Code -5 for a fault on the server's side, which carries no OCPP error code. */
export function serverErrorBody(message: string): CommandResultBody {
  return { code: -5, success: false, message: "Error", error: { type: "ServerError", message } };
}
