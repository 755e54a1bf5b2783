import type { CloudClient } from "../../cloud/client.js";
import { ForbiddenError, NotFoundError, ValidationError } from "../../cloud/errors.js";
import type { ChangeRequest } from "../../control/index.js";
import type { Logger } from "../../log.js";
import type { RestorePlan, SavedValue } from "../../store/index.js";
import type { RulesGate } from "./options.js";
import { inSession, presetDifference, recordBefore } from "./saved-values.js";

const COMMAND = { priority: "command" } as const;

/**
 * What to put back after a rule's changes: a snapshot per inverter the rule changes, or, where
 * the token lacks the snapshot scopes (403), the values it is about to change read first. EV
 * charger commands are always recorded locally (snapshots cover inverters only).
 */
export async function prepareRestore(
  client: CloudClient,
  requests: readonly ChangeRequest[],
  snapshotName: string,
  logger: Logger,
): Promise<RestorePlan> {
  const plan: RestorePlan = { snapshots: [], local: [] };
  const serials = [...new Set(requests.flatMap((request) => (request.kind === "ev-command" ? [] : [request.serial])))];
  const recordLocally = new Set<string>();
  for (const serial of serials) {
    try {
      await takeSnapshot(client, serial, snapshotName);
      plan.snapshots.push({ serial, name: snapshotName });
    } catch (error) {
      if (!(error instanceof ForbiddenError)) throw error;
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

/** A name left taken by an earlier run (its restore done or given up) is deleted and taken again. */
async function takeSnapshot(client: CloudClient, serial: string, name: string): Promise<void> {
  try {
    await client.snapshots.take(serial, name, COMMAND);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    await client.snapshots.delete(serial, name, COMMAND);
    await client.snapshots.take(serial, name, COMMAND);
  }
}

export interface RestoreReport {
  readonly ok: boolean;
  readonly method: "snapshot" | "local";
  readonly message: string;
}

/** Puts a plan back: snapshots through the API, local values through the gate, writing only what differs. */
export async function restorePlan(
  client: CloudClient,
  gate: RulesGate,
  rule: string,
  plan: RestorePlan,
): Promise<RestoreReport> {
  const problems: string[] = [];
  const done: string[] = [];
  for (const snapshot of plan.snapshots) {
    try {
      const result = await client.snapshots.restore(snapshot.serial, snapshot.name, COMMAND);
      if (result.success) done.push(`snapshot ${snapshot.name} restored on ${snapshot.serial}`);
      else problems.push(`snapshot ${snapshot.name} on ${snapshot.serial}: not every setting could be restored`);
    } catch (error) {
      if (error instanceof NotFoundError) done.push(`snapshot ${snapshot.name} on ${snapshot.serial} was already gone`);
      else problems.push(`snapshot ${snapshot.name} on ${snapshot.serial}: ${(error as Error).message}`);
    }
  }
  // Last changed, first put back.
  for (const saved of [...plan.local].reverse()) {
    try {
      const requests = await restoreRequests(client, saved);
      if (requests.length === 0) done.push(`${label(saved)} unchanged`);
      for (const request of requests) {
        const outcome = await gate.apply(request, { source: "rule", name: rule });
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
