import { z } from "zod";
import type { EndpointInfo } from "../../../cloud/index.js";
import {
  EV_COMMANDS,
  type EvCommandId,
  evChargerEndpoints,
  inverterControlEndpoints,
  notificationEndpoints,
  notificationRequest,
  snapshotEndpoints,
} from "../../../cloud/index.js";
import type { ChangeRequest, DeviceAction } from "../../../control/index.js";

/** A write `energy2mqtt api` sends through the control gate, or why its body does not fit. */
export type GateWrite =
  | { readonly kind: "change"; readonly request: ChangeRequest }
  | { readonly kind: "action"; readonly action: DeviceAction }
  | { readonly kind: "invalid"; readonly problem: string };

/** The write endpoints the gate takes, as the `api` command's help names them. */
export const GATED_WRITES = [
  "POST /inverter/{serial}/settings/{id}/write",
  "POST /inverter/{serial}/presets/{preset}",
  "POST /ev-charger/{uuid}/commands/{command}",
  "POST|DELETE /inverter/{serial}/snapshot/{name} and POST .../restore",
  "POST /notification/send",
] as const;

/** The client sends its own configured context; one in the body is left out. */
const withoutContext = (body: Record<string, unknown>): Record<string, unknown> => {
  const { context: _context, ...rest } = body;
  return rest;
};

const object = z.record(z.string(), z.unknown(), { error: "the body must be a JSON object" });
const settingBody = z.object(
  {
    value: z.union([z.string(), z.number(), z.boolean()], {
      error: 'the body needs "value": a string, number or boolean',
    }),
    context: z.string().optional(),
  },
  { error: 'the body must be a JSON object such as {"value":30}' },
);

/**
 * The gate's request for a known write endpoint, with the path's values; undefined for a write
 * the gate does not take (it needs --raw).
 */
export function gateWriteOf(endpoint: EndpointInfo, path: string, body: unknown): GateWrite | undefined {
  const params = pathParams(endpoint.path, path);
  const serial = params.inverter_serial_number ?? "";
  switch (endpoint) {
    case inverterControlEndpoints.writeSetting: {
      const parsed = settingBody.safeParse(body ?? {});
      if (!parsed.success) return invalid(parsed.error);
      const settingId = Number(params.setting_id);
      if (!Number.isInteger(settingId))
        return { kind: "invalid", problem: `"${params.setting_id}" is not a setting id` };
      return { kind: "change", request: { kind: "setting", serial, settingId, value: parsed.data.value } };
    }
    case inverterControlEndpoints.modifyPreset: {
      const parsed = object.safeParse(body ?? {});
      if (!parsed.success) return invalid(parsed.error);
      const preset = params.preset ?? "";
      return { kind: "change", request: { kind: "preset", serial, preset, fields: withoutContext(parsed.data) } };
    }
    case evChargerEndpoints.sendCommand: {
      const parsed = object.safeParse(body ?? {});
      if (!parsed.success) return invalid(parsed.error);
      const command = params.command_id ?? "";
      if (!isEvCommand(command))
        return {
          kind: "invalid",
          problem: `unknown EV command "${command}"; known: ${Object.keys(EV_COMMANDS).join(", ")}`,
        };
      const uuid = params.charger_uuid ?? "";
      return { kind: "change", request: { kind: "ev-command", uuid, command, request: withoutContext(parsed.data) } };
    }
    case snapshotEndpoints.take:
    case snapshotEndpoints.restore:
    case snapshotEndpoints.delete: {
      const op =
        endpoint === snapshotEndpoints.take ? "take" : endpoint === snapshotEndpoints.restore ? "restore" : "delete";
      return { kind: "action", action: { kind: "snapshot", op, serial, name: params.name ?? "" } };
    }
    case notificationEndpoints.send: {
      const parsed = notificationRequest.safeParse(body ?? {});
      if (!parsed.success) return invalid(parsed.error);
      return { kind: "action", action: { kind: "notification", notification: parsed.data } };
    }
    default:
      return undefined;
  }
}

function invalid(error: z.ZodError): GateWrite {
  return { kind: "invalid", problem: error.issues.map((issue) => issue.message).join("; ") };
}

function isEvCommand(name: string): name is EvCommandId {
  return Object.hasOwn(EV_COMMANDS, name);
}

/** The path's values by the template's placeholder names, decoded. */
function pathParams(template: string, path: string): Record<string, string> {
  const names = template.split("/");
  const values = path.split("/");
  const params: Record<string, string> = {};
  names.forEach((name, index) => {
    const placeholder = /^\{(\w+)\}$/.exec(name)?.[1];
    const value = values[index];
    if (placeholder && value !== undefined) params[placeholder] = decodeURIComponent(value);
  });
  return params;
}
