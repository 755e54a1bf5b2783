/**
 * Device answers that arrive with HTTP 200 but may mean failure: remote control codes for
 * inverter reads and writes, and EV charger command codes. Each becomes a typed result that
 * says whether the change may have happened, so callers read back before trying again.
 */

export const REMOTE_CONTROL_CODES = {
  [-1]: { name: "TIMEOUT", meaning: "the device did not respond before the timeout", mayHaveApplied: true },
  [-2]: { name: "OFFLINE", meaning: "the device is offline", mayHaveApplied: false },
  [-3]: { name: "NO_ACCESS", meaning: "the device does not exist or the account has no access", mayHaveApplied: false },
  [-4]: { name: "VALIDATION", meaning: "the value failed validation", mayHaveApplied: false },
  [-5]: { name: "SERVER_ERROR", meaning: "server error", mayHaveApplied: true },
  [-6]: {
    name: "NO_SERVER_RESPONSE",
    meaning: "no response from the server the device was last connected to",
    mayHaveApplied: true,
  },
  [-7]: { name: "LOCKED", meaning: "the device is locked and cannot be modified", mayHaveApplied: false },
} as const;

export type RemoteControlCode = -1 | -2 | -3 | -4 | -5 | -6 | -7;

export type RemoteControlResult<V = unknown> =
  | { readonly ok: true; readonly value: V; readonly message?: string }
  | {
      readonly ok: false;
      /** Undefined when the device refused without a documented code. */
      readonly code: RemoteControlCode | undefined;
      readonly reason: string;
      readonly mayHaveApplied: boolean;
      readonly message?: string;
    };

export function isRemoteControlCode(value: unknown): value is RemoteControlCode {
  return typeof value === "number" && Number.isInteger(value) && value >= -7 && value <= -1;
}

/** Reads `{value, success?, message?}`: a code is a negative value (number or numeric text) not marked successful. */
export function remoteControlResult<V>(answer: {
  value: V;
  success?: boolean | null;
  message?: string | null;
}): RemoteControlResult<V> {
  const message = answer.message ?? undefined;
  const code = typeof answer.value === "string" && /^-\d$/.test(answer.value) ? Number(answer.value) : answer.value;
  if (answer.success !== true && isRemoteControlCode(code)) {
    const known = REMOTE_CONTROL_CODES[code];
    return { ok: false, code, reason: known.meaning, mayHaveApplied: known.mayHaveApplied, message };
  }
  if (answer.success === false) {
    return { ok: false, code: undefined, reason: message ?? "the device refused", mayHaveApplied: true, message };
  }
  return { ok: true, value: answer.value, message };
}

export const EV_COMMAND_CODES = {
  0: { name: "SUCCESS", meaning: "command sent" },
  [-1]: { name: "TIMEOUT", meaning: "the charger did not respond in time" },
  [-2]: { name: "CHARGER_OFFLINE", meaning: "the charger is offline" },
  [-3]: { name: "INVALID_DATA", meaning: "the data is invalid" },
  [-4]: { name: "FAILURE", meaning: "the charger acted but did not respond as expected" },
  [-5]: { name: "ERROR", meaning: "error on the server or the charger" },
} as const;

export type EvCommandCode = 0 | -1 | -2 | -3 | -4 | -5;

export interface EvCommandError {
  readonly code?: string | null;
  readonly type?: string | null;
  readonly message?: string | null;
}

export type EvCommandResult =
  | { readonly ok: true; readonly code: 0; readonly message: string }
  | {
      readonly ok: false;
      readonly code: EvCommandCode | undefined;
      readonly name: string;
      readonly reason: string;
      readonly mayHaveApplied: boolean;
      readonly message: string;
      /** The CallError (charger) or server error detail that code -5 carries. */
      readonly error?: EvCommandError;
      readonly data?: unknown;
    };

function isEvCommandCode(value: unknown): value is EvCommandCode {
  return typeof value === "number" && Number.isInteger(value) && value >= -5 && value <= 0;
}

/**
 * -1 (timeout) and -4 (acted, answered oddly) may have changed the charger. -5 with a charger
 * CallError is a refusal; -5 from the server says nothing either way, so it may have.
 */
export function evCommandResult(answer: {
  code?: number | null;
  success?: boolean | null;
  message?: string | null;
  error?: EvCommandError | null;
  data?: unknown;
}): EvCommandResult {
  const message = answer.message ?? "";
  const code = isEvCommandCode(answer.code) ? answer.code : undefined;
  if (code === 0 && answer.success !== false) return { ok: true, code: 0, message };
  if (code === undefined && answer.success === true) return { ok: true, code: 0, message };
  const known = code === undefined ? undefined : EV_COMMAND_CODES[code];
  const chargerRefused = code === -5 && typeof answer.error?.code === "string";
  const mayHaveApplied = code === undefined || code === -1 || code === -4 || (code === -5 && !chargerRefused);
  const detail = answer.error?.message
    ? `: ${answer.error.code ?? answer.error.type ?? "error"} ${answer.error.message}`
    : "";
  return {
    ok: false,
    code,
    name: known?.name ?? "UNKNOWN",
    reason: `${known?.meaning ?? "the command failed"}${detail}`,
    mayHaveApplied,
    message,
    ...(answer.error ? { error: answer.error } : {}),
    ...(answer.data !== undefined ? { data: answer.data } : {}),
  };
}
