/**
 * An OCPP 1.6J central system (issue 37): EV charge points connect to it over WebSocket (ws://, or
 * wss:// with a certificate) with HTTP Basic auth, boot, report status and meter values and run
 * their sessions; the daemon sees that as `events$` and sends them commands. Sessions and the
 * transaction ids it gives are kept in the store (`OcppSessionStore`), so an id never repeats.
 *
 * Everything a charge point sends is checked against OCPP 1.6J's JSON schemas (ocpp-rpc's strict
 * mode): a request that breaks them, an unknown action or a frame that is not OCPP-J is answered
 * with a CallError and logged; a message larger than `maxMessageBytes` closes that connection.
 * An unknown charge point or a wrong password is refused with 401 before the WebSocket opens.
 */

export type { OcppSession, OcppSessionStore } from "../store/index.js";
export { startCentralSystem } from "./central-system.js";
export { type MeterReading, readMeterValues } from "./meter-values.js";
export { ocppRpc } from "./ocpp-rpc.js";
export { type CentralSystemSettings, centralSystemSettings, type OcppConfig } from "./settings.js";
export {
  type CentralSystem,
  type CentralSystemOptions,
  type ClearLimitRequest,
  type CommandAnswer,
  type ConnectorStatus,
  type CurrentLimitRequest,
  type OcppAuthorisation,
  type OcppChargePointLogin,
  OcppCommandError,
  type OcppCommandFailure,
  type OcppEvent,
  type RemoteStartRequest,
  type TriggerRequest,
} from "./types.js";
