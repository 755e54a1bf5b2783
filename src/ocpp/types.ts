import type { Observable } from "rxjs";
import type { Logger } from "../log/log.js";
import type { OcppSession, OcppSessionStore } from "../store/index.js";
import type { Clock } from "../time/index.js";

/** Who may start a charge: everyone, or only the listed RFID tags (idTag), compared exactly. */
export type OcppAuthorisation =
  | { readonly policy: "accept_all" }
  | { readonly policy: "id_tags"; readonly idTags: readonly string[] };

/** One charge point allowed to connect: its identity (the last part of its URL) and its Basic auth password. */
export interface OcppChargePointLogin {
  readonly id: string;
  readonly password: string;
}

export interface CentralSystemOptions {
  /** The address to listen on; 127.0.0.1 by default. */
  readonly host?: string;
  /** The port; 0 takes any free one (tests). */
  readonly port: number;
  /** The charge points allowed to connect (OCPP security profile 1: HTTP Basic auth); anyone else gets 401. */
  readonly chargePoints: readonly OcppChargePointLogin[];
  readonly authorisation: OcppAuthorisation;
  /** PEM text of a certificate and its key: wss:// (OCPP security profile 2) when given, ws:// otherwise. */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** The heartbeat interval sent in BootNotification.conf; 60 by default. */
  readonly heartbeatSeconds?: number;
  /** How long a command waits for the charge point's answer; 30 s by default (real time: a socket's timeout). */
  readonly commandTimeoutMs?: number;
  /** The largest WebSocket message accepted; a larger one closes the connection (1009). 64 KiB by default. */
  readonly maxMessageBytes?: number;
  /** Where sessions and transaction ids are kept. */
  readonly sessions: OcppSessionStore;
  /** Every time the central system sends or records (currentTime, events, sessions). */
  readonly clock: Clock;
  readonly logger: Logger;
}

/** A connector's status (StatusNotification.req's status in OCPP 1.6). */
export type ConnectorStatus =
  | "Available"
  | "Preparing"
  | "Charging"
  | "SuspendedEV"
  | "SuspendedEVSE"
  | "Finishing"
  | "Reserved"
  | "Unavailable"
  | "Faulted";

/** What the central system saw of its charge points; `at` is epoch ms on its clock. */
export type OcppEvent =
  | { readonly kind: "connected" | "disconnected"; readonly id: string; readonly at: number }
  | {
      readonly kind: "boot";
      readonly id: string;
      readonly at: number;
      readonly vendor: string;
      readonly model: string;
      readonly serial?: string;
      readonly firmware?: string;
    }
  | { readonly kind: "heartbeat"; readonly id: string; readonly at: number }
  | {
      readonly kind: "status";
      readonly id: string;
      readonly at: number;
      readonly connectorId: number;
      readonly status: ConnectorStatus;
      /** NoError, or one of OCPP 1.6's ChargePointErrorCode values. */
      readonly errorCode: string;
    }
  | {
      readonly kind: "meter";
      readonly id: string;
      readonly at: number;
      readonly connectorId: number;
      readonly transactionId?: number;
      /** Active power imported, W (summed over the phases when only per-phase values came). */
      readonly powerW?: number;
      /** Current imported, A (the highest phase when per-phase values came). */
      readonly currentA?: number;
      /** The energy register, kWh. */
      readonly energyKwh?: number;
      readonly socPercent?: number;
    }
  /** A session started (no stoppedAt) or stopped. */
  | { readonly kind: "session"; readonly id: string; readonly at: number; readonly session: OcppSession };

/**
 * What a charge point answered a command, as OCPP 1.6 words it: Accepted or Rejected; Scheduled
 * (ChangeAvailability while charging); NotSupported (SetChargingProfile, UnlockConnector);
 * NotImplemented (TriggerMessage); Unknown (ClearChargingProfile: no such profile); Unlocked or
 * UnlockFailed (UnlockConnector).
 */
export type CommandAnswer =
  | "Accepted"
  | "Rejected"
  | "Scheduled"
  | "NotSupported"
  | "NotImplemented"
  | "Unknown"
  | "Unlocked"
  | "UnlockFailed";

export interface RemoteStartRequest {
  readonly idTag: string;
  readonly connectorId?: number;
  /** A current limit for this session (a TxProfile sent with the start), A. */
  readonly limitA?: number;
}

export interface CurrentLimitRequest {
  /** Amps, rounded to 0.1 A as OCPP asks. */
  readonly limitA: number;
  /** 0 (the whole charge point) by default for TxDefaultProfile, 1 for TxProfile. */
  readonly connectorId?: number;
  /** TxProfile: this session only; TxDefaultProfile: every session from now on. */
  readonly purpose: "TxProfile" | "TxDefaultProfile";
  readonly transactionId?: number;
}

export interface ClearLimitRequest {
  /** Left out: every connector. */
  readonly connectorId?: number;
  /** Left out: the limits of both purposes this central system sets. */
  readonly purpose?: "TxProfile" | "TxDefaultProfile";
}

export interface TriggerRequest {
  readonly requestedMessage: "StatusNotification" | "MeterValues" | "Heartbeat" | "BootNotification";
  readonly connectorId?: number;
}

export interface CentralSystem {
  /** The port it listens on (the one taken when 0 was asked). */
  readonly port: number;
  /** Connections, boots, heartbeats, statuses, meter values and sessions, as they come. Completes on close. */
  readonly events$: Observable<OcppEvent>;
  /** Whether the charge point is connected now. */
  connected(id: string): boolean;
  /**
   * Each command resolves with what the charge point answered, or rejects with an OcppCommandError:
   * not connected, no answer in time, a CallError from the charge point, or an answer that breaks the schema.
   */
  remoteStart(id: string, request: RemoteStartRequest): Promise<CommandAnswer>;
  remoteStop(id: string, transactionId: number): Promise<CommandAnswer>;
  /** SetChargingProfile with one period from now on: the charge point may draw at most limitA. */
  setCurrentLimit(id: string, request: CurrentLimitRequest): Promise<CommandAnswer>;
  /** ClearChargingProfile of the limits this central system set. */
  clearCurrentLimit(id: string, request?: ClearLimitRequest): Promise<CommandAnswer>;
  changeAvailability(
    id: string,
    request: { readonly connectorId: number; readonly type: "Operative" | "Inoperative" },
  ): Promise<CommandAnswer>;
  /** A soft reset only: the charge point stops its sessions cleanly and restarts. */
  reset(id: string): Promise<CommandAnswer>;
  triggerMessage(id: string, request: TriggerRequest): Promise<CommandAnswer>;
  unlockConnector(id: string, connectorId: number): Promise<CommandAnswer>;
  /** Disconnects every charge point and stops listening; events$ completes. */
  close(): Promise<void>;
}

export type OcppCommandFailure = "not-connected" | "timeout" | "call-error" | "invalid-request" | "invalid-answer";

/** A command that got no usable answer; `kind` says why, the message says what to do. */
export class OcppCommandError extends Error {
  override readonly name = "OcppCommandError";
  constructor(
    readonly kind: OcppCommandFailure,
    message: string,
    /** With call-error: the charge point's error code (NotSupported, InternalError, ...). */
    readonly code?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
