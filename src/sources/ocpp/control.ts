import { type CommandAnswer, OcppCommandError } from "../../ocpp/index.js";
import type { ChargerCommand, ChargerControl } from "../charger-ports.js";
import type { PathOutcome } from "../control-ports.js";
import { CurrentLimits } from "./current-limits.js";
import type { OcppChargers } from "./resources.js";

/** The idTag a charge started by the daemon carries (OCPP 1.6: at most 20 characters). */
export const DAEMON_ID_TAG = "energy2mqtt";

/** Whether the charge point will do it. */
function accepted(answer: CommandAnswer): boolean {
  return answer === "Accepted" || answer === "Unlocked";
}

/** What the charge point answered, in the gate's terms: it will do it (now, or once its session ends), or it said no. */
function answered(answer: CommandAnswer, what: string): PathOutcome<undefined> {
  if (accepted(answer)) return { outcome: "done", value: undefined, message: `the charge point accepted ${what}` };
  if (answer === "Scheduled")
    return { outcome: "done", value: undefined, message: `the charge point will do ${what} when its session ends` };
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
 * the next), unlock and a soft restart (only ever soft), the charger in or out of service
 * (ChangeAvailability) and a message asked for (TriggerMessage).
 */
export function ocppChargerControl(chargers: OcppChargers): ChargerControl {
  const { central } = chargers;
  const limits = new CurrentLimits();
  const send = async (id: string, command: ChargerCommand): Promise<PathOutcome<undefined>> => {
    const transaction = chargers.openTransactionOf(id);
    switch (command.kind) {
      case "start": {
        // The session carries the limit the daemon set as its own TxProfile, so that it holds
        // even where the charger dropped its default profile (a reboot may).
        const limitA = limits.forNewSession(id);
        const start = { idTag: DAEMON_ID_TAG, connectorId: 1, ...(limitA === undefined ? {} : { limitA }) };
        const what = limitA === undefined ? "the start" : `the start at ${limitA} A`;
        return answered(await central.remoteStart(id, start), what);
      }
      case "stop":
        if (transaction === undefined) return { outcome: "refused", reason: "no charge is under way to stop" };
        return answered(await central.remoteStop(id, transaction), "the stop");
      case "current-limit": {
        const answer = await central.setCurrentLimit(
          id,
          transaction === undefined
            ? { limitA: command.amps, purpose: "TxDefaultProfile" }
            : { limitA: command.amps, purpose: "TxProfile", connectorId: 1, transactionId: transaction },
        );
        if (accepted(answer)) {
          if (transaction === undefined) limits.setForEverySession(id, command.amps);
          else limits.setForSession(id, transaction, command.amps);
        }
        return answered(answer, `a limit of ${command.amps} A`);
      }
      case "unlock":
        return answered(await central.unlockConnector(id, 1), "unlocking the connector");
      case "restart":
        return answered(await central.reset(id), "a soft reset");
      case "availability": {
        // Connector 0: the whole charge point, as a charger with one connector is taken out of service.
        const type = command.operative ? "Operative" : "Inoperative";
        return answered(await central.changeAvailability(id, { connectorId: 0, type }), `availability ${type}`);
      }
      case "trigger":
        return answered(
          await central.triggerMessage(id, {
            requestedMessage: command.message,
            ...(command.message === "StatusNotification" || command.message === "MeterValues"
              ? { connectorId: 1 }
              : {}),
          }),
          `sending ${command.message}`,
        );
    }
  };
  const connectedPoint = (uuid: string): string | undefined => {
    const id = chargers.chargePointOf(uuid);
    return id !== undefined && central.connected(id) ? id : undefined;
  };
  return {
    carries: (uuid) => connectedPoint(uuid) !== undefined,
    status(uuid) {
      const id = connectedPoint(uuid);
      return id === undefined ? undefined : chargers.statusOf(id);
    },
    currentLimit(uuid) {
      const id = connectedPoint(uuid);
      return id === undefined ? undefined : limits.inForce(id, chargers.openTransactionOf(id));
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
