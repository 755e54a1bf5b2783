import { z } from "zod";
import type { CloudClient } from "../cloud/client.js";
import { CloudError } from "../cloud/errors.js";
import type { ApplyProfileRequest, ProfileRef } from "../cloud/sections/preset-profiles.js";
import type { ControlGate, DeviceActionOutcome } from "../control/index.js";
import { oversized } from "./payload-limit.js";

/** Requests on `<base>/bridge/request/<action>`; every one may carry a `transaction` to echo. */
const serialAndName = z.strictObject({ serial: z.string().min(1), name: z.string().min(1).max(32) });
const profileRef = z.strictObject({
  serial: z.string().min(1),
  name: z.string().min(1).max(32),
  preset: z.string().min(1),
});

const ACTIONS = {
  "snapshot/take": serialAndName,
  "snapshot/exists": serialAndName,
  "snapshot/restore": serialAndName,
  "snapshot/delete": serialAndName,
  "preset-profile/list": z.strictObject({
    serial: z.string().min(1),
    name: z.string().max(32).optional(),
    presets: z.array(z.string()).optional(),
  }),
  "preset-profile/create": profileRef,
  "preset-profile/update": profileRef,
  "preset-profile/apply": z.strictObject({
    serial: z.string().min(1),
    name: z.string().min(1).max(32),
    presets: z.array(z.string()).optional(),
    delete_after_apply: z.boolean().optional(),
  }),
  "preset-profile/delete": profileRef,
  "notification/send": z.strictObject({
    platforms: z.array(z.enum(["persist", "push"])).min(1),
    title: z.string(),
    body: z.string(),
    icon: z.string(),
  }),
  "smart-device/data": z.strictObject({ uuid: z.string().min(1), time: z.string(), power: z.number().int() }),
  "preset/apply": z.strictObject({
    serial: z.string().min(1),
    preset: z.string().min(1),
    fields: z.record(z.string(), z.unknown()),
  }),
} as const;

export type BridgeAction = keyof typeof ACTIONS;
export const BRIDGE_ACTIONS = Object.keys(ACTIONS) as BridgeAction[];

export interface BridgeResponse {
  readonly status: "ok" | "error";
  readonly data: unknown;
  readonly error?: string;
  readonly transaction?: string | number;
}

const envelope = z.looseObject({ transaction: z.union([z.string(), z.number()]).optional() });

/** Runs one bridge action; never throws: every failure becomes `{status: "error", error}`. */
export async function runBridgeAction(
  action: string,
  payload: string,
  deps: { client: CloudClient; gate: ControlGate },
): Promise<BridgeResponse> {
  const refused = (error: string): BridgeResponse => {
    if (action === "preset/apply") auditRefusedPreset({}, error, deps.gate);
    return { status: "error", data: {}, error };
  };
  const tooBig = oversized(payload, "request");
  if (tooBig) return refused(tooBig);
  let json: unknown;
  try {
    json = payload.trim() === "" ? {} : JSON.parse(payload);
  } catch {
    return refused("the payload is not valid JSON");
  }
  const outer = envelope.safeParse(json);
  const transaction = outer.success ? outer.data.transaction : undefined;
  const reply = (body: Omit<BridgeResponse, "transaction">): BridgeResponse =>
    transaction === undefined ? body : { ...body, transaction };
  if (!(action in ACTIONS)) {
    return reply({
      status: "error",
      data: {},
      error: `unknown action "${action}"; known: ${BRIDGE_ACTIONS.join(", ")}`,
    });
  }
  const { transaction: _ignored, ...fields } = outer.success ? outer.data : {};
  const schema = ACTIONS[action as BridgeAction];
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "payload"}: ${i.message}`).join("; ");
    if (action === "preset/apply") auditRefusedPreset(fields, problems, deps.gate);
    return reply({ status: "error", data: {}, error: problems });
  }
  try {
    return reply({ status: "ok", data: await perform(action as BridgeAction, parsed.data, deps) });
  } catch (error) {
    const message =
      error instanceof CloudError ? error.message : error instanceof Error ? error.message : String(error);
    return reply({ status: "error", data: {}, error: message });
  }
}

/** preset/apply is a change to a device: its refusal goes into the audit log like the gate's own. */
function auditRefusedPreset(fields: Record<string, unknown>, reason: string, gate: ControlGate): void {
  const text = (value: unknown) => (typeof value === "string" && value.length > 0 ? value.slice(0, 64) : undefined);
  gate.refuse(
    {
      targetKind: "inverter",
      target: text(fields.serial) ?? "(no serial)",
      action: `preset:${text(fields.preset) ?? "(no preset)"}`,
      request: { serial: text(fields.serial) ?? null, preset: text(fields.preset) ?? null },
      reason,
    },
    { source: "bridge", name: "preset/apply" },
  );
}

type Parsed<A extends BridgeAction> = z.output<(typeof ACTIONS)[A]>;

async function perform(
  action: BridgeAction,
  input: unknown,
  deps: { client: CloudClient; gate: ControlGate },
): Promise<unknown> {
  const { client, gate } = deps;
  const options = { priority: "command" as const };
  const requester = { source: "bridge" as const, name: action };
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
      return { exists: await client.snapshots.exists(serial, name, options) };
    }
    case "preset-profile/list": {
      const { serial, ...filter } = input as Parsed<"preset-profile/list">;
      return client.presetProfiles.list(
        serial,
        filter as Parameters<CloudClient["presetProfiles"]["list"]>[1],
        options,
      );
    }
    case "preset-profile/create":
    case "preset-profile/update":
    case "preset-profile/delete": {
      const { serial, name, preset } = input as Parsed<"preset-profile/create">;
      const profile = { name, preset } as ProfileRef;
      const op = action.slice("preset-profile/".length) as "create" | "update" | "delete";
      return acted(await gate.act({ kind: "preset-profile", op, serial, profile }, requester));
    }
    case "preset-profile/apply": {
      const { serial, ...request } = input as Parsed<"preset-profile/apply">;
      return acted(
        await gate.act(
          { kind: "preset-profile", op: "apply", serial, request: request as ApplyProfileRequest },
          requester,
        ),
      );
    }
    case "notification/send":
      return acted(
        await gate.act({ kind: "notification", notification: input as Parsed<"notification/send"> }, requester),
      );
    case "smart-device/data": {
      const { uuid, ...point } = input as Parsed<"smart-device/data">;
      return acted(await gate.act({ kind: "smart-device-data", uuid, point }, requester));
    }
    case "preset/apply": {
      const { serial, preset, fields } = input as Parsed<"preset/apply">;
      const outcome = await gate.apply(
        { kind: "preset", serial, preset, fields },
        { source: "bridge", name: "preset/apply" },
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
