import { type CommandAnswer, OcppCommandError } from "../../ocpp/index.js";
import type { ChargerCommand, ChargerControl } from "../charger-ports.js";
import type { PathOutcome } from "../control-ports.js";
import type { OcppChargers } from "./resources.js";

/** The idTag a charge started by the daemon carries (OCPP 1.6: at most 20 characters). */
export const DAEMON_ID_TAG = "energy2mqtt";

/** What the charge point answered, in the gate's terms: it will do it, or it said no. */
function answered(answer: CommandAnswer, what: string): PathOutcome<undefined> {
  if (answer === "Accepted" || answer === "Unlocked")
    return { outcome: "done", value: undefined, message: `the charge point accepted ${what}` };
  return { outcome: "refused", reason: `the charge point answered ${answer} to ${what}` };
}

/** A command that failed: never sent or refused (refused), or sent with no answer in time (open). */
function failed(error: unknown, what: string): PathOutcome<undefined> {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof OcppCommandError && error.kind === "timeout")
    return { outcome: "open", reason: `${what}: no answer from the charge point in time (${message})` };
  return { outcome: "refused", reason: `${what}: ${message}` };
}

/**
 * An EV charger's commands over OCPP (issue 37), for a charger whose charge point is connected to
 * the daemon's central system: start and stop (RemoteStart/RemoteStopTransaction), a current
 * limit (SetChargingProfile: this session's TxProfile while one is under way, else the default for
 * the next), unlock and a soft restart.
 */
export function ocppChargerControl(chargers: OcppChargers): ChargerControl {
  const { central } = chargers;
  const send = async (id: string, command: ChargerCommand): Promise<PathOutcome<undefined>> => {
    const transaction = chargers.openTransactionOf(id);
    switch (command.kind) {
      case "start":
        return answered(await central.remoteStart(id, { idTag: DAEMON_ID_TAG, connectorId: 1 }), "the start");
      case "stop":
        if (transaction === undefined) return { outcome: "refused", reason: "no charge is under way to stop" };
        return answered(await central.remoteStop(id, transaction), "the stop");
      case "current-limit":
        return answered(
          await central.setCurrentLimit(
            id,
            transaction === undefined
              ? { limitA: command.amps, purpose: "TxDefaultProfile" }
              : { limitA: command.amps, purpose: "TxProfile", connectorId: 1, transactionId: transaction },
          ),
          `a limit of ${command.amps} A`,
        );
      case "unlock":
        return answered(await central.unlockConnector(id, 1), "unlocking the connector");
      case "restart":
        return answered(await central.reset(id), "a soft reset");
    }
  };
  return {
    carries: (uuid) => {
      const id = chargers.chargePointOf(uuid);
      return id !== undefined && central.connected(id);
    },
    async command(uuid, command) {
      const id = chargers.chargePointOf(uuid);
      if (id === undefined) return { outcome: "refused", reason: `charger ${uuid} has no charge point on OCPP` };
      try {
        return await send(id, command);
      } catch (error) {
        return failed(error, command.kind);
      }
    },
  };
}
