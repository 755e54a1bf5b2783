import type { RemoteControlResult } from "../cloud/results.js";

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
