import { z } from "zod";
import type { ChangeOutcome, ControlGate, DeviceActionOutcome, Requester } from "../control/index.js";
import { oversized } from "../mqtt/index.js";
import type { AccountReads } from "../sources/index.js";
import { accountNotification, presetProfileApply, presetProfileRef, smartDevicePoint } from "../vocabulary/index.js";
import { CHARGER_ACTIONS, chargerActionOf, isChargerAction } from "./bridge-charger-actions.js";

/** Sets a device's clock now, as asked (control/clock-watch.ts: only when the daemon's own clock is trusted). */
export type ClockSyncNow = (serial: string, requester: Requester) => Promise<ChangeOutcome>;

export interface BridgeDeps {
  readonly client: AccountReads;
  readonly gate: ControlGate;
  readonly syncClock?: ClockSyncNow | undefined;
}

/** Requests on `<base>/bridge/request/<action>`; every one may carry a `transaction` to echo. */
const serial = z.string().min(1);
const serialAndName = z.strictObject({ serial, name: z.string().min(1).max(32) });
// The device first, then the action's own fields: a refusal names the fields in this order.
const profileRef = z.strictObject({ serial, ...presetProfileRef.shape });

const ACTIONS = {
  "snapshot/take": serialAndName,
  "snapshot/exists": serialAndName,
  "snapshot/restore": serialAndName,
  "snapshot/delete": serialAndName,
  "preset-profile/list": z.strictObject({
    serial,
    name: z.string().max(32).optional(),
    presets: z.array(z.string()).optional(),
  }),
  "preset-profile/create": profileRef,
  "preset-profile/update": profileRef,
  "preset-profile/apply": z.strictObject({ serial, ...presetProfileApply.shape }),
  "preset-profile/delete": profileRef,
  "notification/send": accountNotification,
  "smart-device/data": z.strictObject({ uuid: z.string().min(1), ...smartDevicePoint.shape }),
  "preset/apply": z.strictObject({
    serial,
    preset: z.string().min(1),
    fields: z.record(z.string(), z.unknown()),
  }),
  ...CHARGER_ACTIONS,
  "clock/sync": z.strictObject({ serial }),
} as const;

export type BridgeAction = keyof typeof ACTIONS;
export const BRIDGE_ACTIONS = Object.keys(ACTIONS) as BridgeAction[];

/** Whatever JSON the request's `transaction` held, echoed back as it came. */
const transactionSchema = z.json();
type Transaction = z.infer<typeof transactionSchema>;

export interface BridgeResponse {
  readonly status: "ok" | "error";
  readonly data: unknown;
  readonly error?: string;
  readonly transaction?: Transaction;
}

/** What a refusal records of the request: its payload, capped like a refused command's. */
const AUDITED_PAYLOAD_CHARACTERS = 256;

/**
 * Runs one bridge action; never throws: every failure becomes `{status: "error", error}`, with
 * the request's `transaction` (any JSON value) when it could be read. A request refused before
 * it is acted on is recorded in the audit log, as a refused command is.
 */
export async function runBridgeAction(action: string, payload: string, deps: BridgeDeps): Promise<BridgeResponse> {
  let transaction: Transaction | undefined;
  let fields: Record<string, unknown> = {};
  const reply = (body: Omit<BridgeResponse, "transaction">): BridgeResponse =>
    transaction === undefined ? body : { ...body, transaction };
  const refused = (error: string): BridgeResponse => {
    auditRefusal(action, payload, fields, error, deps.gate);
    return reply({ status: "error", data: {}, error });
  };
  const tooBig = oversized(payload, "request");
  if (tooBig) return refused(tooBig);
  let json: unknown;
  try {
    json = payload.trim() === "" ? {} : JSON.parse(payload);
  } catch (error) {
    return refused(
      `the payload is not valid JSON (${(error as Error).message}): send an object like {"serial": "..."}`,
    );
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    return refused(
      `the payload must be a JSON object like {"serial": "..."}, not ${json === null ? "null" : Array.isArray(json) ? "an array" : `a ${typeof json}`}`,
    );
  }
  const { transaction: given, ...rest } = json as Record<string, unknown>;
  fields = rest;
  const echoed = transactionSchema.safeParse(given);
  if (echoed.success && given !== undefined) transaction = echoed.data;
  if (!(action in ACTIONS)) {
    return refused(`unknown action "${capped(action, 64)}"; known: ${BRIDGE_ACTIONS.join(", ")}`);
  }
  const schema = ACTIONS[action as BridgeAction];
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    return refused(parsed.error.issues.map((i) => `${i.path.join(".") || "payload"}: ${i.message}`).join("; "));
  }
  try {
    return reply({ status: "ok", data: await perform(action as BridgeAction, parsed.data, deps) });
  } catch (error) {
    return reply({ status: "error", data: {}, error: error instanceof Error ? error.message : String(error) });
  }
}

const capped = (text: string, most: number): string => (text.length <= most ? text : `${text.slice(0, most)}…`);

/**
 * A bridge request refused before it was acted on goes into the audit log like a refused
 * command: the device it named (when it named one), the action and the payload, capped.
 */
function auditRefusal(
  action: string,
  payload: string,
  fields: Record<string, unknown>,
  reason: string,
  gate: ControlGate,
): void {
  const text = (value: unknown) => (typeof value === "string" && value.length > 0 ? capped(value, 64) : undefined);
  const serial = text(fields.serial);
  const uuid = text(fields.uuid);
  const known = action in ACTIONS;
  const target =
    serial !== undefined
      ? { targetKind: "inverter", target: serial }
      : uuid !== undefined
        ? { targetKind: isChargerAction(action) ? "ev_charger" : "smart_device", target: uuid }
        : action === "notification/send"
          ? { targetKind: "account", target: "notifications" }
          : { targetKind: "bridge", target: "(none named)" };
  gate.refuse(
    {
      ...target,
      // As the gate names a change or device action it records: preset:<id>, snapshot:take, ...
      action:
        action === "preset/apply"
          ? `preset:${text(fields.preset) ?? "(no preset)"}`
          : known
            ? action.replace("/", ":")
            : `unknown:${capped(action, 64)}`,
      request: { payload: capped(payload, AUDITED_PAYLOAD_CHARACTERS) },
      reason,
    },
    { via: "bridge", name: capped(action, 64) },
  );
}

type Parsed<A extends BridgeAction> = z.output<(typeof ACTIONS)[A]>;

async function perform(action: BridgeAction, input: unknown, deps: BridgeDeps): Promise<unknown> {
  const { client, gate } = deps;
  const options = { priority: "command" as const };
  const requester = { via: "bridge" as const, name: action };
  switch (action) {
    case "snapshot/take":
    case "snapshot/restore":
    case "snapshot/delete": {
      const { serial, name } = input as Parsed<"snapshot/take">;
      const op = action.slice("snapshot/".length) as "take" | "restore" | "delete";
      return acted(await gate.act({ kind: "snapshot", op, serial, name }, requester));
    }
    case "snapshot/exists": {
      const { serial, name } = input as Parsed<"snapshot/exists">;
      // A device changed over the LAN has the daemon's own snapshots, not the cloud's.
      return {
        exists: gate.localSnapshotExists(serial, name) ?? (await client.snapshots.exists(serial, name, options)),
      };
    }
    case "preset-profile/list": {
      const { serial, ...filter } = input as Parsed<"preset-profile/list">;
      return client.presetProfiles.list(
        serial,
        filter as Parameters<AccountReads["presetProfiles"]["list"]>[1],
        options,
      );
    }
    case "preset-profile/create":
    case "preset-profile/update":
    case "preset-profile/delete": {
      const { serial, name, preset } = input as Parsed<"preset-profile/create">;
      const profile = { name, preset };
      const op = action.slice("preset-profile/".length) as "create" | "update" | "delete";
      return acted(await gate.act({ kind: "preset-profile", op, serial, profile }, requester));
    }
    case "preset-profile/apply": {
      const { serial, ...request } = input as Parsed<"preset-profile/apply">;
      return acted(await gate.act({ kind: "preset-profile", op: "apply", serial, request }, requester));
    }
    case "notification/send":
      return acted(
        await gate.act({ kind: "notification", notification: input as Parsed<"notification/send"> }, requester),
      );
    case "smart-device/data": {
      const { uuid, ...point } = input as Parsed<"smart-device/data">;
      return acted(await gate.act({ kind: "smart-device-data", uuid, point }, requester));
    }
    case "charger/availability":
    case "charger/trigger":
    case "charger/reset":
    case "charger/unlock": {
      const { uuid, action: asked } = chargerActionOf(action, input);
      return acted(await gate.act({ kind: "charger", uuid, action: asked }, requester));
    }
    case "clock/sync": {
      const { serial } = input as Parsed<"clock/sync">;
      if (!deps.syncClock) throw new Error("this daemon sets no device's clock");
      const outcome = await deps.syncClock(serial, requester);
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome;
    }
    case "preset/apply": {
      const { serial, preset, fields } = input as Parsed<"preset/apply">;
      const outcome = await gate.apply(
        { kind: "preset", serial, preset, fields },
        { via: "bridge", name: "preset/apply" },
      );
      if (!outcome.ok) throw new Error(outcome.message);
      return outcome;
    }
  }
}

/** A device action's answer for the requester, or its failure as the response's error. */
function acted(outcome: DeviceActionOutcome): unknown {
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.data ?? {};
}
