import type { ChargerAnswer, ChargerCommand } from "../sources/index.js";
import type { ChargerCommandId } from "../vocabulary/index.js";
import type { ChangeOutcome } from "./change.js";
import { failed, succeeded, unknown } from "./outcome.js";

/**
 * The EV commands a charger's own path (OCPP) carries as they are, in the daemon's terms;
 * undefined for one only the cloud has (a schedule, a mode, plug-and-go). A restart and an unlock
 * go over OCPP only confirmed, as charger actions (charger-actions.ts).
 */
export function chargerCommandOf(
  command: ChargerCommandId,
  request: Readonly<Record<string, unknown>>,
): ChargerCommand | undefined {
  switch (command) {
    case "start-charge":
      return { kind: "start" };
    case "stop-charge":
      return { kind: "stop" };
    case "adjust-charge-power-limit":
      return typeof request.limit === "number" ? { kind: "current-limit", amps: request.limit } : undefined;
    default:
      return undefined;
  }
}

/**
 * The path's answer as the change's outcome: accepted is done (the charge point will act; over
 * Modbus, read back), refused did not apply (or did not hold), open may have. An accepted limit is
 * the value the charger holds now (OCPP cannot read it back, and the cloud may not answer): what
 * Home Assistant shows.
 */
export function chargerOutcome(command: ChargerCommandId, sent: ChargerCommand, answer: ChargerAnswer): ChangeOutcome {
  const over = answer.path ?? "OCPP";
  switch (answer.outcome) {
    case "done":
      return succeeded(`${command} done over ${over}: ${answer.message ?? "accepted"}`, {
        verified: over === "Modbus",
        ...(sent.kind === "current-limit" ? { value: sent.amps } : {}),
      });
    case "refused":
      return failed(`${command} not done over ${over}: ${answer.reason}`);
    case "open":
      return unknown(`${command} over ${over}: ${answer.reason}`);
  }
}
