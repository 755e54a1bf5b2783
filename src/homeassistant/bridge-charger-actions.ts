import { z } from "zod";
import type { ChargerAction } from "../control/index.js";
import { CHARGER_MESSAGES } from "../sources/index.js";

const uuid = z.string().min(1);
/** A reset or an unlock is sent only when the request says so: a stray or replayed message must not. */
const confirmation = (what: string) =>
  z.literal(true, { error: `${what} needs "confirm": true in the request; nothing was sent` });

/**
 * The bridge's requests for what only a charger's own path (OCPP) carries, on
 * `<base>/bridge/request/charger/<op>`; they go through the gate as charger actions, audited.
 */
export const CHARGER_ACTIONS = {
  "charger/availability": z.strictObject({ uuid, available: z.boolean() }),
  "charger/trigger": z.strictObject({ uuid, message: z.enum(CHARGER_MESSAGES) }),
  "charger/reset": z.strictObject({ uuid, confirm: confirmation("a reset (always soft)") }),
  "charger/unlock": z.strictObject({ uuid, confirm: confirmation("unlocking the connector") }),
} as const;

type ChargerBridgeAction = keyof typeof CHARGER_ACTIONS;

export function isChargerAction(action: string): action is ChargerBridgeAction {
  return action in CHARGER_ACTIONS;
}

/** The gate's charger action for a request its schema has read. */
export function chargerActionOf(
  action: ChargerBridgeAction,
  input: unknown,
): { readonly uuid: string; readonly action: ChargerAction } {
  switch (action) {
    case "charger/availability": {
      const request = input as z.output<(typeof CHARGER_ACTIONS)["charger/availability"]>;
      return { uuid: request.uuid, action: { op: "availability", available: request.available } };
    }
    case "charger/trigger": {
      const request = input as z.output<(typeof CHARGER_ACTIONS)["charger/trigger"]>;
      return { uuid: request.uuid, action: { op: "trigger", message: request.message } };
    }
    case "charger/reset": {
      const request = input as z.output<(typeof CHARGER_ACTIONS)["charger/reset"]>;
      return { uuid: request.uuid, action: { op: "reset", confirmed: request.confirm } };
    }
    case "charger/unlock": {
      const request = input as z.output<(typeof CHARGER_ACTIONS)["charger/unlock"]>;
      return { uuid: request.uuid, action: { op: "unlock", confirmed: request.confirm } };
    }
  }
}
