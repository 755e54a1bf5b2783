import type { ChargerCommand, ChargerControl } from "../sources/index.js";
import type { ChargerAction } from "./charger-actions.js";
import type { DeviceActionOutcome } from "./device-action.js";

function commandOf(action: ChargerAction): ChargerCommand {
  switch (action.op) {
    case "availability":
      return { kind: "availability", operative: action.available };
    case "trigger":
      return { kind: "trigger", message: action.message };
    case "reset":
      return { kind: "restart" };
    case "unlock":
      return { kind: "unlock" };
  }
}

/** Sends the action over the charger's own path; refused, nothing sent, when that path does not carry the charger now. */
export async function runChargerAction(
  chargers: ChargerControl | undefined,
  uuid: string,
  action: ChargerAction,
): Promise<DeviceActionOutcome> {
  if (!chargers?.carries(uuid))
    return {
      ok: false,
      refused: true,
      message: `charger ${uuid} is not connected to the daemon's OCPP central system: ${action.op} goes over OCPP only`,
    };
  const answer = await chargers.command(uuid, commandOf(action));
  switch (answer.outcome) {
    case "done":
      return { ok: true, message: `${action.op} done over OCPP: ${answer.message ?? "accepted"}` };
    case "refused":
      return { ok: false, refused: true, message: `${action.op} not done over OCPP: ${answer.reason}` };
    case "open":
      return { ok: false, message: `${action.op} over OCPP: ${answer.reason}; it may or may not have been done` };
  }
}
