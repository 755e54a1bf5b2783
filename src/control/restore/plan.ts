import type { ControlRestore, RestorePlan, SavedValue } from "../../store/index.js";
import type { ChangeOutcome, ChangeRequest, Requester } from "../change.js";
import type { DeviceAction, DeviceActionOutcome } from "../device-action.js";
import { sameValue } from "../same-value.js";
import { type Current, changedSince, readCurrent } from "./device-now.js";
import type { DeviceReads } from "./device-reads.js";
import { presetDifference } from "./saved-values.js";

/** What the restore needs of the gate: every write (and an old promise's snapshot) goes through it, audited. */
export interface RestoreGate {
  apply(request: ChangeRequest, requester: Requester): Promise<ChangeOutcome>;
  act(action: DeviceAction, requester: Requester): Promise<DeviceActionOutcome>;
}

export interface RestoreReport {
  readonly ok: boolean;
  readonly method: "snapshot" | "local";
  readonly message: string;
}

/**
 * Puts a plan back: each control the rule changed, through the gate, writing only what differs,
 * and only where the device still holds what the rule wrote (someone else's later change stands,
 * and the report says so). Snapshots only come from promises made before restores went per control.
 */
export async function restorePlan(
  reads: DeviceReads,
  gate: RestoreGate,
  requester: Requester,
  plan: RestorePlan,
): Promise<RestoreReport> {
  // What puts the house back goes even when a device's daily write budget is spent.
  const restoring: Requester = { ...requester, restore: true };
  const problems: string[] = [];
  const done: string[] = [];
  for (const snapshot of plan.snapshots) {
    const result = await gate.act(
      { kind: "snapshot", op: "restore", serial: snapshot.serial, name: snapshot.name },
      restoring,
    );
    if (result.ok) done.push(`snapshot ${snapshot.name} restored on ${snapshot.serial}`);
    else if (result.failure === "unconfirmed")
      problems.push(`snapshot ${snapshot.name} on ${snapshot.serial}: not every setting could be restored`);
    else if (result.failure === "not-found")
      done.push(`snapshot ${snapshot.name} on ${snapshot.serial} was already gone`);
    else problems.push(`snapshot ${snapshot.name} on ${snapshot.serial}: ${result.message}`);
  }
  // Last changed, first put back.
  for (const entry of [...plan.controls].reverse()) {
    try {
      const report = await restoreControl(reads, gate, restoring, entry);
      if (report.ok) done.push(report.message);
      else problems.push(report.message);
    } catch (error) {
      problems.push(`${label(entry.before)}: ${(error as Error).message}`);
    }
  }
  const method = plan.snapshots.length > 0 ? "snapshot" : "local";
  if (problems.length > 0) return { ok: false, method, message: `restore incomplete: ${problems.join("; ")}` };
  return { ok: true, method, message: done.length > 0 ? done.join("; ") : "nothing to restore" };
}

function label(saved: SavedValue): string {
  if (saved.kind === "preset") return `preset ${saved.preset} on ${saved.serial}`;
  if (saved.kind === "setting") return `setting ${saved.settingId} on ${saved.serial}`;
  return `charger ${saved.uuid} ${saved.command}`;
}

/** One control put back, unless someone changed it since the rule did. */
async function restoreControl(
  reads: DeviceReads,
  gate: RestoreGate,
  requester: Requester,
  entry: ControlRestore,
): Promise<{ readonly ok: boolean; readonly message: string }> {
  const { before, wrote } = entry;
  const name = label(before);
  const current = await readCurrent(reads, before);
  const requests = restoreRequests(before, current);
  if (requests.length === 0) return { ok: true, message: `${name} unchanged` };
  const changed = wrote === undefined ? undefined : changedSince(wrote, current);
  if (changed !== undefined)
    return { ok: true, message: `${name} left as is: changed since the rule wrote it (${changed})` };
  const outcomes: string[] = [];
  for (const request of requests) {
    const outcome = await gate.apply(request, requester);
    if (!outcome.ok) return { ok: false, message: `${name}: ${outcome.message}` };
    outcomes.push(outcome.skipped ? "unchanged" : "restored");
  }
  return { ok: true, message: `${name} ${outcomes.includes("restored") ? "restored" : "unchanged"}` };
}

/** The writes that put a saved value back; none when the device holds it already. */
function restoreRequests(saved: SavedValue, current: Current): ChangeRequest[] {
  const one = restoreRequest(saved, current);
  if (one?.kind !== "preset") return one ? [one] : [];
  const { enabled, ...rest } = one.fields;
  // A timed preset switched off ignores the slots sent with it: put the slots back first.
  if (enabled !== false || Object.keys(rest).length === 0) return [one];
  return [
    { ...one, fields: rest },
    { ...one, fields: { enabled } },
  ];
}

function restoreRequest(saved: SavedValue, current: Current): ChangeRequest | undefined {
  switch (saved.kind) {
    case "preset": {
      if (current?.kind !== "preset") return undefined;
      const fields = presetDifference(current.values, saved.fields);
      if (Object.keys(fields).length === 0) return undefined;
      return { kind: "preset", serial: saved.serial, preset: saved.preset, fields };
    }
    case "setting":
      if (current?.kind === "setting" && sameValue(current.value, saved.value)) return undefined;
      // Unread, the gate reads (or knows) the value and skips an unchanged write.
      return { kind: "setting", serial: saved.serial, settingId: saved.settingId, value: saved.value };
    case "ev-command": {
      if (saved.command === "change-mode") {
        if (current?.kind === "mode" && current.active === saved.request.mode) return undefined;
        return { kind: "ev-command", uuid: saved.uuid, command: "change-mode", request: saved.request };
      }
      if (saved.command === "start-charge" || saved.command === "stop-charge") {
        if (current?.kind === "charging" && current.charging === (saved.command === "start-charge")) return undefined;
        return { kind: "ev-command", uuid: saved.uuid, command: saved.command, request: {} };
      }
      if (saved.command === "adjust-charge-power-limit") {
        if (current?.kind === "limit" && sameValue(current.value, saved.request.limit)) return undefined;
        return { kind: "ev-command", uuid: saved.uuid, command: saved.command, request: saved.request };
      }
      return undefined;
    }
  }
}
