import type { AuditEntryInput } from "../store/index.js";
import type { ChangeOutcome, ChangeRequest, Requester } from "./change.js";
import { actionTarget, type DeviceAction, type DeviceActionOutcome } from "./device-action.js";

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
  return auditRow(targetOf(request), request, requester, outcome, at);
}

/** The audit row of a device action (snapshot, preset profile, notification, smart-device data). */
export function actionAuditEntry(
  action: DeviceAction,
  requester: Requester,
  outcome: DeviceActionOutcome,
  at: number,
): AuditEntryInput {
  return auditRow(actionTarget(action), action, requester, { ...outcome, verified: false, skipped: false }, at);
}

function auditRow(
  target: { readonly kind: string; readonly id: string; readonly action: string },
  request: unknown,
  requester: Requester,
  outcome: ChangeOutcome,
  at: number,
): AuditEntryInput {
  return {
    at,
    source: requester.via,
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
