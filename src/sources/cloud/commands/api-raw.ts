import type { AuditEntryInput, AuditLog } from "../../../store/index.js";

/** A JSON value, as the audit log stores a request. */
export type Json = AuditEntryInput["request"];

/** What `--raw` leaves out, as the command says before sending. */
export const RAW_BYPASSES =
  "--raw: sent as is, past the control gate: no validation against the device's rules, no check that it changes anything, no read-back of what the device now holds";

/** What an audit row says of a raw write until its answer replaces it. */
const PENDING =
  "sent raw, outcome not recorded yet: if this stays, energy2mqtt stopped before the answer came and the change may or may not have happened";

export interface RawWrite {
  readonly method: string;
  /** Below the base URL, without the query. */
  readonly path: string;
  readonly query: string;
  readonly body: Json | undefined;
}

/**
 * Audits a raw write the way the gate audits its changes: a row before sending (so none is sent
 * unrecorded; a store that cannot be written throws and nothing is sent), settled with the answer.
 * In the audit log's `source` column "cli", action "raw:METHOD PATH".
 */
export async function auditedRaw<T>(
  audit: AuditLog,
  write: RawWrite,
  now: () => number,
  send: () => Promise<T>,
  outcome: (answer: T) => { readonly ok: boolean; readonly code?: number; readonly message: string },
): Promise<T> {
  const base = {
    source: "cli",
    requesterName: "energy2mqtt api --raw",
    ...targetOf(write.path),
    action: `raw:${write.method} ${write.path}`,
    request: { query: write.query, body: write.body ?? null },
    verified: false,
    skipped: false,
  } as const;
  const id = audit.begin({ ...base, at: now(), ok: false, message: PENDING });
  let answer: T;
  try {
    answer = await send();
  } catch (error) {
    audit.settle(id, { ...base, at: now(), ok: false, message: `sent raw, no answer: ${(error as Error).message}` });
    throw error;
  }
  const { ok, code, message } = outcome(answer);
  audit.settle(id, { ...base, at: now(), ok, ...(code === undefined ? {} : { code }), message });
  return answer;
}

/** The device a path names, for the audit log's target; the account otherwise. */
function targetOf(path: string): { readonly targetKind: string; readonly target: string } {
  const [, first, second] = path.split("/");
  if (first === "inverter" && second) return { targetKind: "inverter", target: decodeURIComponent(second) };
  if (first === "ev-charger" && second) return { targetKind: "ev_charger", target: decodeURIComponent(second) };
  if (first === "smart-device" && second) return { targetKind: "smart_device", target: decodeURIComponent(second) };
  return { targetKind: "account", target: first ?? "/" };
}
