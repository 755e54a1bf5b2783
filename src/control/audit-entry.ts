import type { AuditEntryInput } from "../store/index.js";
import type { ChangeOutcome, ChangeRequest, Requester } from "./change.js";

export function targetOf(request: ChangeRequest): { kind: "inverter" | "ev_charger"; id: string; action: string } {
  switch (request.kind) {
    case "setting":
      return { kind: "inverter", id: request.serial, action: `setting:${request.settingId}` };
    case "preset":
      return { kind: "inverter", id: request.serial, action: `preset:${request.preset}` };
    case "ev-command":
      return { kind: "ev_charger", id: request.uuid, action: `command:${request.command}` };
  }
}

/** One audit row: when, what, who asked, the request, and what came of it. */
export function auditEntry(
  request: ChangeRequest,
  requester: Requester,
  outcome: ChangeOutcome,
  at: number,
): AuditEntryInput {
  const target = targetOf(request);
  return {
    at,
    source: requester.source,
    ...(requester.name === undefined ? {} : { requesterName: requester.name }),
    targetKind: target.kind,
    target: target.id,
    action: target.action,
    // A JSON round trip drops what JSON cannot hold (undefined fields) before the store checks it.
    request: JSON.parse(JSON.stringify(request)) as AuditEntryInput["request"],
    ok: outcome.ok,
    ...(outcome.code === undefined ? {} : { code: outcome.code }),
    verified: outcome.verified,
    skipped: outcome.skipped,
    message: outcome.message,
  };
}
