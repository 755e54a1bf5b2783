import type { CloudClient } from "../../cloud/client.js";
import type { Logger } from "../../log.js";
import type { RestorePlan, SavedValue } from "../../store/index.js";
import type { ChangeOutcome, ChangeRequest, Requester } from "../change.js";
import type { DeviceAction, DeviceActionOutcome } from "../device-action.js";
import { inSession, presetDifference, recordBefore } from "./saved-values.js";

/** What the restore needs of the gate: every snapshot and every write goes through it, audited. */
export interface RestoreGate {
  apply(request: ChangeRequest, requester: Requester): Promise<ChangeOutcome>;
  act(action: DeviceAction, requester: Requester): Promise<DeviceActionOutcome>;
}

const COMMAND = { priority: "command" } as const;

/**
 * What to put back after a rule's changes: a snapshot per inverter the rule changes, or, where
 * the token lacks the snapshot scopes (403), the values it is about to change read first. EV
 * charger commands are always recorded locally (snapshots cover inverters only).
 */
export async function prepareRestore(
  client: CloudClient,
  gate: RestoreGate,
  requester: Requester,
  requests: readonly ChangeRequest[],
  snapshotName: string,
  logger: Logger,
): Promise<RestorePlan> {
  const plan: RestorePlan = { snapshots: [], local: [] };
  const serials = [...new Set(requests.flatMap((request) => (request.kind === "ev-command" ? [] : [request.serial])))];
  const recordLocally = new Set<string>();
  for (const serial of serials) {
    const taken = await takeSnapshot(gate, requester, serial, snapshotName);
    if (taken === "taken") plan.snapshots.push({ serial, name: snapshotName });
    else {
      logger.info({ serial }, "the token may not take snapshots (403): recording the values the rule changes instead");
      recordLocally.add(serial);
    }
  }
  const seen = new Set<string>();
  for (const request of requests) {
    if (request.kind !== "ev-command" && !recordLocally.has(request.serial)) continue;
    const key = JSON.stringify([
      request.kind,
      request.kind === "ev-command" ? request.uuid : request.serial,
      controlOf(request),
    ]);
    if (seen.has(key)) continue;
    seen.add(key);
    const saved = await recordBefore(client, request);
    if (saved) plan.local.push(saved);
    else
      logger.warn({ request: controlOf(request) }, "this change cannot be put back after the window: it is left as is");
  }
  return plan;
}

function controlOf(request: ChangeRequest): string {
  if (request.kind === "preset") return request.preset;
  if (request.kind === "setting") return String(request.settingId);
  return request.command === "stop-charge" ? "start-charge" : request.command;
}

/**
 * A name left taken by an earlier run (its restore done or given up) is deleted and taken again.
 * A token without the snapshot scopes (403) answers "forbidden"; any other failure throws.
 */
async function takeSnapshot(
  gate: RestoreGate,
  requester: Requester,
  serial: string,
  name: string,
): Promise<"taken" | "forbidden"> {
  const take = () => gate.act({ kind: "snapshot", op: "take", serial, name }, requester);
  let outcome = await take();
  if (outcome.failure === "invalid") {
    const deleted = await gate.act({ kind: "snapshot", op: "delete", serial, name }, requester);
    if (!deleted.ok) throw new Error(deleted.message);
    outcome = await take();
  }
  // The answer's `success` is the cloud's word on the snapshot, not on the request: taken either way.
  if (outcome.ok || outcome.failure === "unconfirmed") return "taken";
  if (outcome.failure === "forbidden") return "forbidden";
  throw new Error(outcome.message);
}

export interface RestoreReport {
  readonly ok: boolean;
  readonly method: "snapshot" | "local";
  readonly message: string;
}

/** Puts a plan back: snapshots through the API, local values through the gate, writing only what differs. */
export async function restorePlan(
  client: CloudClient,
  gate: RestoreGate,
  requester: Requester,
  plan: RestorePlan,
): Promise<RestoreReport> {
  const problems: string[] = [];
  const done: string[] = [];
  for (const snapshot of plan.snapshots) {
    const result = await gate.act(
      { kind: "snapshot", op: "restore", serial: snapshot.serial, name: snapshot.name },
      requester,
    );
    if (result.ok) done.push(`snapshot ${snapshot.name} restored on ${snapshot.serial}`);
    else if (result.failure === "unconfirmed")
      problems.push(`snapshot ${snapshot.name} on ${snapshot.serial}: not every setting could be restored`);
    else if (result.failure === "not-found")
      done.push(`snapshot ${snapshot.name} on ${snapshot.serial} was already gone`);
    else problems.push(`snapshot ${snapshot.name} on ${snapshot.serial}: ${result.message}`);
  }
  // Last changed, first put back.
  for (const saved of [...plan.local].reverse()) {
    try {
      const requests = await restoreRequests(client, saved);
      if (requests.length === 0) done.push(`${label(saved)} unchanged`);
      for (const request of requests) {
        const outcome = await gate.apply(request, requester);
        if (outcome.ok) done.push(`${label(saved)} ${outcome.skipped ? "unchanged" : "restored"}`);
        else problems.push(`${label(saved)}: ${outcome.message}`);
      }
    } catch (error) {
      problems.push(`${label(saved)}: ${(error as Error).message}`);
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

/** The writes that put a saved value back; none when the device holds it already. */
async function restoreRequests(client: CloudClient, saved: SavedValue): Promise<ChangeRequest[]> {
  const one = await restoreRequest(client, saved);
  if (one?.kind !== "preset") return one ? [one] : [];
  const { enabled, ...rest } = one.fields;
  // A timed preset switched off ignores the slots sent with it: put the slots back first.
  if (enabled !== false || Object.keys(rest).length === 0) return [one];
  return [
    { ...one, fields: rest },
    { ...one, fields: { enabled } },
  ];
}

async function restoreRequest(client: CloudClient, saved: SavedValue): Promise<ChangeRequest | undefined> {
  switch (saved.kind) {
    case "preset": {
      const current = await client.inverterControl.presetValues(saved.serial, saved.preset, COMMAND);
      const fields = presetDifference(current, saved.fields);
      if (Object.keys(fields).length === 0) return undefined;
      return { kind: "preset", serial: saved.serial, preset: saved.preset, fields };
    }
    case "setting":
      // The gate reads (or knows) the value and skips an unchanged write.
      return { kind: "setting", serial: saved.serial, settingId: saved.settingId, value: saved.value };
    case "ev-command": {
      if (saved.command === "change-mode") {
        const data = await client.evChargers.commandData(saved.uuid, "change-mode", COMMAND);
        if (data.active === saved.request.mode) return undefined;
        return { kind: "ev-command", uuid: saved.uuid, command: "change-mode", request: saved.request };
      }
      if (saved.command === "start-charge" || saved.command === "stop-charge") {
        const charging = inSession((await client.evChargers.get(saved.uuid, COMMAND)).status);
        if (charging === (saved.command === "start-charge")) return undefined;
        return { kind: "ev-command", uuid: saved.uuid, command: saved.command, request: {} };
      }
      return undefined;
    }
  }
}
