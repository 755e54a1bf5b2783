import type { PresetChange } from "../cloud/index.js";
import { type RemoteControlCode, type RemoteControlResult, remoteControlResult } from "../cloud/index.js";

/** What to do next, per remote control code, for the codes where the user can act. */
const ADVICE: Readonly<Record<number, string>> = {
  [-2]: "try again when it is back online",
  [-7]: "unlock it, then try again",
};

/** A refused read or write in words: meaning, code, the device's own message, and advice. */
export function rejectionText(result: Extract<RemoteControlResult, { ok: false }>): string {
  const parts = [result.code === undefined ? result.reason : `${result.reason} (code ${result.code})`];
  if (result.message && result.message !== result.reason) parts.push(result.message);
  const advice = result.code === undefined ? undefined : ADVICE[result.code];
  return advice ? `${parts.join(": ")}; ${advice}` : parts.join(": ");
}

/**
 * Modify Preset answers `{success, message}` without the remote control code a setting write
 * carries in `value`; the device's refusal is in the message, as the setting answers word it.
 */
const PRESET_MESSAGES: readonly (readonly [RegExp, RemoteControlCode])[] = [
  [/^inverter timeout\b/i, -1],
  [/^inverter offline\b/i, -2],
  [/does not exist or access denied/i, -3],
  [/^inverter locked\b/i, -7],
];

/** A preset's answer read like a setting's: the same codes, the same "may have applied". */
export function presetResult(answer: PresetChange): RemoteControlResult<undefined> {
  const message = answer.message ?? undefined;
  if (!answer.success && answer.notSent)
    return { ok: false, code: undefined, reason: message ?? "refused before sending", mayHaveApplied: false, message };
  const code = answer.success ? undefined : PRESET_MESSAGES.find(([pattern]) => pattern.test(message ?? ""))?.[1];
  const result = remoteControlResult<RemoteControlCode | undefined>({
    value: code,
    success: answer.success,
    ...(message === undefined ? {} : { message }),
  });
  return result.ok ? { ok: true, value: undefined, ...(message === undefined ? {} : { message }) } : result;
}
