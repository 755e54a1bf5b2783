import type { OcppEvent, OcppSession } from "../../ocpp/index.js";
import { isoSeconds } from "../../time/index.js";
import { type ChargerSession, round, type StateValues } from "../../vocabulary/index.js";
import type { Fetched } from "../fetched.js";

/*
 * What an OCPP charge point tells the central system, as the readings every path gives of an EV
 * charger (src/vocabulary/charger.ts): the same state keys and units as the cloud's, so Home
 * Assistant's entities are the same whichever path carries the charger. OCPP has no history of
 * its own to give: the sessions are the daemon's (the store's ocpp_sessions).
 */

export function chargerSessionOfOcpp(session: OcppSession): ChargerSession {
  return {
    startedAt: isoSeconds(session.startedAt),
    open: session.stoppedAt === undefined,
    meterStartKwh: round(session.meterStartWh / 1000),
    meterStopKwh: session.meterStopWh === undefined ? null : round(session.meterStopWh / 1000),
  };
}

/** The charger's status: its first connector's (connector 0 is the whole charge point, reported only when it has a fault). */
function statusValues(event: Extract<OcppEvent, { kind: "status" }>): StateValues | undefined {
  if (event.connectorId > 1) return undefined;
  if (event.connectorId === 0 && event.status !== "Unavailable" && event.status !== "Faulted") return undefined;
  return { status: event.status, online: "ON" };
}

function meterValues(event: Extract<OcppEvent, { kind: "meter" }>): StateValues {
  const values: StateValues = {};
  if (event.powerW !== undefined) values.power = round(event.powerW);
  if (event.energyKwh !== undefined) values.energy = round(event.energyKwh);
  if (event.currentA !== undefined) values.current = event.currentA;
  if (event.socPercent !== undefined) values.soc = event.socPercent;
  return values;
}

/** The reading an event gives of the charger `uuid` (the charge point's twin in the inventory), if any. */
export function fetchedOfOcpp(event: OcppEvent, uuid: string): Fetched | undefined {
  const { at } = event;
  switch (event.kind) {
    case "connected":
    case "disconnected":
      return { kind: "ev.status", uuid, at, values: { online: event.kind === "connected" ? "ON" : "OFF" } };
    case "status": {
      const values = statusValues(event);
      return values && { kind: "ev.status", uuid, at, values };
    }
    case "meter":
      return { kind: "ev.meter", uuid, at, records: [], values: meterValues(event), measuredAt: at };
    case "session":
      return { kind: "ev.sessions", uuid, at, sessions: [], session: chargerSessionOfOcpp(event.session) };
    case "boot":
    case "heartbeat":
      return undefined;
  }
}
