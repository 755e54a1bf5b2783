import { timingSafeEqual } from "node:crypto";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { RPCClient } from "ocpp-rpc";
import { Subject } from "rxjs";
import type { z } from "zod";
import type { OcppSession } from "../store/index.js";
import { isoSeconds } from "../time/index.js";
import * as messages from "./messages.js";
import { readMeterValues } from "./meter-values.js";
import { ocppRpc } from "./ocpp-rpc.js";
import {
  type CentralSystem,
  type CentralSystemOptions,
  type ClearLimitRequest,
  type CommandAnswer,
  type CurrentLimitRequest,
  OcppCommandError,
  type OcppEvent,
  type RemoteStartRequest,
  type TriggerRequest,
} from "./types.js";

/** A connected charge point as ocpp-rpc holds it (its RPCServerClient is an RPCClient). */
type RpcServerClient = InstanceType<typeof RPCClient>;

const PROTOCOL = "ocpp1.6";
const DEFAULT_HEARTBEAT_SECONDS = 60;
const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024;
/** After this many bad messages in a row a charge point is disconnected (1002); it may reconnect. */
const MAX_BAD_MESSAGES = 20;
/** The charging profile ids this central system uses: one per purpose, so that a new limit replaces the last. */
const PROFILE_IDS = { TxDefaultProfile: 1, TxProfile: 2 } as const;
/** An identity as it appears in the log: a stranger's URL may be long or odd. */
const shown = (identity: string): string => JSON.stringify(identity.slice(0, 64));

/**
 * Starts an OCPP 1.6J central system (see index.ts): a WebSocket server for the configured charge
 * points, on ocpp-rpc with the specification's schemas enforced. Resolves once it listens.
 */
export async function startCentralSystem(options: CentralSystemOptions): Promise<CentralSystem> {
  const { RPCServer, createRPCError } = ocppRpc();
  const logger = options.logger.child({ module: "ocpp" });
  const clock = options.clock;
  const now = (): number => clock.now();
  const events = new Subject<OcppEvent>();
  const emit = (event: OcppEvent): void => events.next(event);
  const peers = new Map<string, RpcServerClient>();
  const passwords = new Map(options.chargePoints.map((cp) => [cp.id, Buffer.from(cp.password, "utf8")]));
  const allowedTags = options.authorisation.policy === "id_tags" ? new Set(options.authorisation.idTags) : undefined;
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;

  const rpc = new RPCServer({
    protocols: [PROTOCOL],
    strictMode: true,
    callTimeoutMs: commandTimeoutMs,
    maxBadMessages: MAX_BAD_MESSAGES,
    wssOptions: { maxPayload: maxMessageBytes },
  });

  rpc.auth((accept, reject, handshake) => {
    const identity = handshake.identity;
    const expected = passwords.get(identity);
    const given = handshake.password;
    if (expected === undefined || given === undefined || !sameSecret(expected, given)) {
      const why =
        expected === undefined ? "unknown charge point" : given === undefined ? "no password" : "wrong password";
      logger.warn(
        { chargePoint: identity.slice(0, 64), remote: handshake.remoteAddress },
        `OCPP connection from ${shown(identity)} refused: ${why}`,
      );
      reject(401, "Unauthorized");
      return;
    }
    if (!handshake.protocols.has(PROTOCOL)) {
      logger.warn(
        { chargePoint: identity },
        `OCPP connection from ${shown(identity)} refused: it does not offer the ocpp1.6 subprotocol`,
      );
      reject(400, "Bad Request: the ocpp1.6 subprotocol is required");
      return;
    }
    accept({}, PROTOCOL);
  });

  rpc.on("upgradeAborted", ({ identity, error }: { identity: string; error: unknown }) => {
    logger.debug({ chargePoint: String(identity).slice(0, 64), error: errorText(error) }, "OCPP upgrade aborted");
  });
  rpc.on("error", (error: unknown) => logger.warn({ error: errorText(error) }, "OCPP server error"));

  rpc.on("client", (client: RpcServerClient) => {
    const id = client.identity ?? "";
    const before = peers.get(id);
    peers.set(id, client);
    if (before) {
      logger.info({ chargePoint: id }, `charge point ${id} connected again: the older connection is closed`);
      void before.close({ code: 1000, reason: "Replaced by a new connection" });
    } else {
      logger.info({ chargePoint: id }, `charge point ${id} connected`);
    }
    emit({ kind: "connected", id, at: now() });
    client.once("close", ({ code }: { code?: number }) => {
      if (peers.get(id) !== client) return;
      peers.delete(id);
      logger.info({ chargePoint: id, code }, `charge point ${id} disconnected`);
      emit({ kind: "disconnected", id, at: now() });
    });
    client.on("badMessage", ({ buffer, error }: { buffer: Buffer; error: unknown }) => {
      logger.warn(
        { chargePoint: id, bytes: buffer.length, error: errorText(error) },
        `charge point ${id} sent a message that is not OCPP-J`,
      );
    });
    client.on(
      "strictValidationFailure",
      ({ method, outbound, error }: { method: string; outbound: boolean; error: unknown }) => {
        logger.warn(
          { chargePoint: id, action: method, error: errorText(error) },
          outbound
            ? `the central system's own ${method} broke the OCPP 1.6 schema (not sent)`
            : `charge point ${id}'s ${method} breaks the OCPP 1.6 schema`,
        );
      },
    );
    client.on("callError", ({ method, error }: { method: string; error: unknown }) => {
      logger.debug(
        { chargePoint: id, action: method, error: errorText(error) },
        `answered ${id}'s ${method} with a CallError`,
      );
    });
    client.on("socketError", (error: unknown) => {
      if (
        typeof error === "object" &&
        error !== null &&
        "code" in error &&
        error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH"
      )
        logger.warn(
          { chargePoint: id, maxBytes: maxMessageBytes },
          `charge point ${id} sent a message larger than ${maxMessageBytes} bytes: disconnected it`,
        );
      else logger.debug({ chargePoint: id, error: errorText(error) }, "OCPP socket error");
    });
    client.on("call", ({ outbound, payload }: { outbound: boolean; payload: unknown[] }) => {
      if (!outbound && typeof payload[2] === "string" && !KNOWN_ACTIONS.has(payload[2]))
        logger.warn(
          { chargePoint: id, action: payload[2].slice(0, 64) },
          `charge point ${id} sent an action this central system does not implement`,
        );
    });
    handleCalls(client, id);
  });

  /** Registers a handler that parses the request with its schema and logs what fails inside. */
  function on<S extends z.ZodType>(
    client: RpcServerClient,
    id: string,
    action: string,
    schema: S,
    handle: (request: z.infer<S>) => Record<string, unknown>,
  ): void {
    client.handle(action, async ({ params }: { params?: unknown }) => {
      const parsed = schema.safeParse(params);
      if (!parsed.success) {
        logger.warn(
          { chargePoint: id, action, issues: parsed.error.issues.length },
          `charge point ${id} sent a ${action} the central system cannot read`,
        );
        throw createRPCError(
          "FormationViolation",
          `${action} does not fit: ${parsed.error.issues[0]?.message ?? "invalid"}`,
        );
      }
      try {
        return handle(parsed.data);
      } catch (error) {
        logger.error(
          { chargePoint: id, action, error: errorText(error) },
          `the central system failed to handle ${id}'s ${action}`,
        );
        throw createRPCError("InternalError", "The central system could not handle the request");
      }
    });
  }

  function idTagStatus(idTag: string): "Accepted" | "Invalid" {
    return allowedTags === undefined || allowedTags.has(idTag) ? "Accepted" : "Invalid";
  }

  function handleCalls(client: RpcServerClient, id: string): void {
    on(client, id, "BootNotification", messages.bootNotification, (boot) => {
      const at = now();
      const serial = boot.chargePointSerialNumber ?? boot.chargeBoxSerialNumber;
      logger.info(
        {
          chargePoint: id,
          vendor: boot.chargePointVendor,
          model: boot.chargePointModel,
          firmware: boot.firmwareVersion,
        },
        `charge point ${id} booted`,
      );
      emit({
        kind: "boot",
        id,
        at,
        vendor: boot.chargePointVendor,
        model: boot.chargePointModel,
        ...(serial === undefined ? {} : { serial }),
        ...(boot.firmwareVersion === undefined ? {} : { firmware: boot.firmwareVersion }),
      });
      return {
        status: "Accepted",
        currentTime: isoSeconds(at),
        interval: options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS,
      };
    });

    client.handle("Heartbeat", async () => {
      const at = now();
      emit({ kind: "heartbeat", id, at });
      return { currentTime: isoSeconds(at) };
    });

    on(client, id, "StatusNotification", messages.statusNotification, (status) => {
      emit({
        kind: "status",
        id,
        at: now(),
        connectorId: status.connectorId,
        status: status.status,
        errorCode: status.errorCode,
      });
      return {};
    });

    on(client, id, "MeterValues", messages.meterValues, (values) => {
      const reading = readMeterValues(values.meterValue);
      emit({
        kind: "meter",
        id,
        at: now(),
        connectorId: values.connectorId,
        ...(values.transactionId === undefined ? {} : { transactionId: values.transactionId }),
        ...reading,
      });
      return {};
    });

    on(client, id, "Authorize", messages.authorize, ({ idTag }) => {
      const status = idTagStatus(idTag);
      if (status !== "Accepted")
        logger.info({ chargePoint: id }, `charge point ${id}: an idTag that is not listed was refused`);
      return { idTagInfo: { status } };
    });

    on(client, id, "StartTransaction", messages.startTransaction, (start) => {
      const at = now();
      const status = idTagStatus(start.idTag);
      // A session still open on the connector lost its StopTransaction: close it without a reading.
      const stale = options.sessions.openOf(id, start.connectorId);
      if (stale) {
        const closed = options.sessions.close(stale.id, { stoppedAt: at, stopReason: "Superseded" });
        logger.warn(
          { chargePoint: id, transactionId: stale.id },
          `charge point ${id} started a session over open transaction ${stale.id}: closed it`,
        );
        if (closed) emit({ kind: "session", id, at, session: closed });
      }
      // The charge point runs the transaction even when its tag is refused (it stops it itself), so
      // it gets an id, and the session is kept.
      const session = options.sessions.open({
        chargePoint: id,
        connectorId: start.connectorId,
        idTag: start.idTag,
        startedAt: at,
        meterStartWh: start.meterStart,
      });
      logger.info(
        { chargePoint: id, transactionId: session.id, connectorId: start.connectorId, authorised: status },
        `charge point ${id} started transaction ${session.id}`,
      );
      emit({ kind: "session", id, at, session });
      return { idTagInfo: { status }, transactionId: session.id };
    });

    on(client, id, "StopTransaction", messages.stopTransaction, (stop) => {
      const at = now();
      const known: OcppSession | undefined = options.sessions.get(stop.transactionId);
      if (known === undefined || known.chargePoint !== id) {
        logger.warn(
          { chargePoint: id, transactionId: stop.transactionId },
          `charge point ${id} stopped transaction ${stop.transactionId}, which the central system did not start for it`,
        );
      } else {
        const closed = options.sessions.close(stop.transactionId, {
          stoppedAt: at,
          meterStopWh: stop.meterStop,
          ...(stop.reason === undefined ? {} : { stopReason: stop.reason }),
        });
        if (closed) {
          logger.info(
            { chargePoint: id, transactionId: closed.id, energyKwh: closed.energyKwh, reason: closed.stopReason },
            `charge point ${id} stopped transaction ${closed.id}`,
          );
          emit({ kind: "session", id, at, session: closed });
        }
      }
      if (stop.transactionData && stop.transactionData.length > 0) {
        const reading = readMeterValues(stop.transactionData);
        if (Object.keys(reading).length > 0)
          emit({
            kind: "meter",
            id,
            at,
            connectorId: known?.connectorId ?? 0,
            transactionId: stop.transactionId,
            ...reading,
          });
      }
      return stop.idTag === undefined ? {} : { idTagInfo: { status: idTagStatus(stop.idTag) } };
    });
  }

  async function command(id: string, action: string, params: Record<string, unknown>): Promise<CommandAnswer> {
    const client = peers.get(id);
    if (client === undefined)
      throw new OcppCommandError("not-connected", `charge point ${id} is not connected: ${action} was not sent`);
    let answer: unknown;
    // Strict mode checks the request before it is sent and the answer when it comes: which broke the schema?
    let fault: "request" | "answer" | undefined;
    const onFailure = (failure: { method: string; outbound: boolean; isCall: boolean }): void => {
      if (failure.method !== action) return;
      if (failure.outbound && failure.isCall) fault = "request";
      else if (!failure.outbound && !failure.isCall) fault = "answer";
    };
    client.on("strictValidationFailure", onFailure);
    try {
      answer = await client.call(action, params, { callTimeoutMs: commandTimeoutMs });
    } catch (error) {
      if (fault === "request")
        throw new OcppCommandError(
          "invalid-request",
          `${action} for ${id} does not fit OCPP 1.6 (${errorText(error)}): it was not sent`,
          undefined,
          { cause: error },
        );
      if (fault === "answer")
        throw new OcppCommandError(
          "invalid-answer",
          `charge point ${id} answered ${action} with something OCPP 1.6 does not allow (${errorText(error)})`,
          undefined,
          { cause: error },
        );
      throw commandFailure(id, action, error, commandTimeoutMs);
    } finally {
      client.off("strictValidationFailure", onFailure);
    }
    const parsed = messages.commandConf.safeParse(answer);
    if (!parsed.success)
      throw new OcppCommandError(
        "invalid-answer",
        `charge point ${id} answered ${action} with no status OCPP 1.6 knows`,
      );
    logger.info(
      { chargePoint: id, action, answer: parsed.data.status },
      `charge point ${id} answered ${action}: ${parsed.data.status}`,
    );
    return parsed.data.status;
  }

  const server: Server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key })
    : createHttpServer();
  server.on("request", (_request, response) => {
    response.statusCode = 404;
    response.end();
  });
  server.on("upgrade", rpc.handleUpgrade);
  server.on("tlsClientError", (error: Error) => logger.debug({ error: errorText(error) }, "OCPP TLS handshake failed"));
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (error) => logger.warn({ error: errorText(error) }, "OCPP server error"));
  const port = (server.address() as AddressInfo).port;
  logger.info(
    { host, port, tls: options.tls !== undefined },
    `OCPP central system listening on ${options.tls ? "wss" : "ws"}://${host}:${port}/<charge point id>`,
  );

  let closed = false;
  return {
    port,
    events$: events.asObservable(),
    connected: (id) => peers.has(id),
    remoteStart: async (id, request: RemoteStartRequest) =>
      command(id, "RemoteStartTransaction", {
        idTag: request.idTag,
        ...(request.connectorId === undefined ? {} : { connectorId: request.connectorId }),
        ...(request.limitA === undefined
          ? {}
          : { chargingProfile: profile(PROFILE_IDS.TxProfile, "TxProfile", request.limitA) }),
      }),
    remoteStop: (id, transactionId) => command(id, "RemoteStopTransaction", { transactionId }),
    setCurrentLimit: async (id, request: CurrentLimitRequest) =>
      command(id, "SetChargingProfile", {
        connectorId: request.connectorId ?? (request.purpose === "TxProfile" ? 1 : 0),
        csChargingProfiles: {
          ...profile(PROFILE_IDS[request.purpose], request.purpose, request.limitA),
          ...(request.transactionId === undefined ? {} : { transactionId: request.transactionId }),
        },
      }),
    clearCurrentLimit: (id, request: ClearLimitRequest = {}) =>
      command(id, "ClearChargingProfile", {
        ...(request.purpose === undefined
          ? {}
          : { id: PROFILE_IDS[request.purpose], chargingProfilePurpose: request.purpose }),
        ...(request.connectorId === undefined ? {} : { connectorId: request.connectorId }),
      }),
    changeAvailability: (id, request) =>
      command(id, "ChangeAvailability", { connectorId: request.connectorId, type: request.type }),
    reset: (id) => command(id, "Reset", { type: "Soft" }),
    triggerMessage: (id, request: TriggerRequest) =>
      command(id, "TriggerMessage", {
        requestedMessage: request.requestedMessage,
        ...(request.connectorId === undefined ? {} : { connectorId: request.connectorId }),
      }),
    unlockConnector: (id, connectorId) => command(id, "UnlockConnector", { connectorId }),
    close: async () => {
      if (closed) return;
      closed = true;
      await rpc.close({ code: 1001, reason: "Central system stopping" });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      events.complete();
      logger.info("OCPP central system stopped");
    },
  };
}

const KNOWN_ACTIONS = new Set([
  "BootNotification",
  "Heartbeat",
  "StatusNotification",
  "MeterValues",
  "Authorize",
  "StartTransaction",
  "StopTransaction",
]);

/** One period from the start, at most `limitA` amps (to 0.1 A, as OCPP 1.6 asks). */
function profile(chargingProfileId: number, purpose: "TxProfile" | "TxDefaultProfile", limitA: number) {
  if (!Number.isFinite(limitA) || limitA < 0)
    throw new OcppCommandError("invalid-request", `a current limit must be a number of amps, 0 or more; got ${limitA}`);
  return {
    chargingProfileId,
    stackLevel: 0,
    chargingProfilePurpose: purpose,
    chargingProfileKind: "Relative",
    chargingSchedule: {
      chargingRateUnit: "A",
      chargingSchedulePeriod: [{ startPeriod: 0, limit: Math.round(limitA * 10) / 10 }],
    },
  };
}

/** Compares a password without telling, by its time, how much of it was right. */
function sameSecret(expected: Buffer, given: Buffer): boolean {
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function commandFailure(id: string, action: string, error: unknown, timeoutMs: number): OcppCommandError {
  const rpcCode =
    typeof error === "object" && error !== null && "rpcErrorCode" in error ? error.rpcErrorCode : undefined;
  const name = error instanceof Error ? error.constructor.name : "";
  if (name === "TimeoutError")
    return new OcppCommandError(
      "timeout",
      `charge point ${id} did not answer ${action} within ${timeoutMs / 1000} s`,
      undefined,
      { cause: error },
    );
  if (typeof rpcCode === "string")
    return new OcppCommandError(
      "call-error",
      `charge point ${id} answered ${action} with an error: ${rpcCode} (${errorText(error)})`,
      rpcCode,
      { cause: error },
    );
  return new OcppCommandError(
    "not-connected",
    `charge point ${id} went away before answering ${action}: ${errorText(error)}`,
    undefined,
    {
      cause: error,
    },
  );
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
