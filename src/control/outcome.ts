import type { ChangeOutcome } from "./change.js";

/** Nothing was sent: the request breaks the device's rules or cannot be checked. */
export function refused(reason: string): ChangeOutcome {
  return { ok: false, verified: false, skipped: false, refused: true, message: `Refused, nothing sent: ${reason}` };
}

export function failed(
  message: string,
  extra: { code?: number; value?: unknown; verified?: boolean; mayHaveApplied?: boolean } = {},
): ChangeOutcome {
  return {
    ok: false,
    verified: extra.verified ?? false,
    skipped: false,
    message,
    ...codeAndValue(extra),
    ...(extra.mayHaveApplied ? { mayHaveApplied: true } : {}),
  };
}

/** Sent, and neither the answer nor reading it back can say whether it happened. */
export function unknown(message: string, extra: { code?: number } = {}): ChangeOutcome {
  return failed(message, { ...extra, mayHaveApplied: true });
}

export function succeeded(
  message: string,
  extra: { code?: number; value?: unknown; verified: boolean },
): ChangeOutcome {
  return { ok: true, verified: extra.verified, skipped: false, message, ...codeAndValue(extra) };
}

export function skipped(message: string, value: unknown): ChangeOutcome {
  return { ok: true, verified: true, skipped: true, message, value };
}

function codeAndValue(extra: { code?: number; value?: unknown }): { code?: number; value?: unknown } {
  return {
    ...(extra.code === undefined ? {} : { code: extra.code }),
    ...(extra.value === undefined ? {} : { value: extra.value }),
  };
}

/** A value as a person reads it in a message. */
export function shown(value: unknown): string {
  if (typeof value === "string") return value === "" ? '""' : value;
  return JSON.stringify(value) ?? String(value);
}

export const MAY_OR_MAY_NOT = "the change may or may not have happened";

/** A wait as a person reads it: 30 s, 0.2 s. */
export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
