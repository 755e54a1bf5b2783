import type { RPCClient } from "ocpp-rpc";
import { z } from "zod";
import { EV_STOP_REASONS } from "../../cloud/index.js";
import { ocppRpc } from "../../ocpp/index.js";
import { type Clock, every, later } from "../../time/index.js";
import type { LocalCharger, Session } from "./types.js";

/**
 * The simulated EV charger as an OCPP 1.6J charge point (one connector): it connects to a central
 * system, boots, beats, reports each status change and, during a transaction, its meter every
 * `meterValueIntervalS` of the simulator's clock; and it answers the central system's commands as a
 * charger does. It reads and drives the charger's own engine (LocalCharger), so the cloud's view and
 * this one agree: a session started here shows in the cloud's sessions, a cloud stop ends the
 * transaction here.
 *
 * Time: heartbeats, meter values and the look at the charger run on the simulator's clock; only the
 * network's reconnect back-off runs on real time (ocpp-rpc's own timers).
 *
 * Not modelled: local authorisation (Authorize, the local list, the cache), reservations, firmware
 * and diagnostics, more than one connector, and charging schedules with more than one period (the
 * period in force when the profile arrives applies until it is replaced or cleared).
 */

export interface OcppChargePointOptions {
  /** The central system, e.g. ws://127.0.0.1:9000/ocpp; the identity is appended as a path segment. */
  readonly url: string;
  /** The charge point's identity (the Basic auth user). */
  readonly id: string;
  readonly password: string;
  readonly charger: LocalCharger;
  readonly clock: Clock;
  /** Simulated seconds between MeterValues during a transaction; 60 by default (MeterValueSampleInterval). */
  readonly meterValueIntervalS?: number;
  /** Simulated ms between looks at the charger for a status change; 1000 by default. */
  readonly pollMs?: number;
  /** Real-time back-off of reconnects, ms; ocpp-rpc's 1 s to 10 s by default. */
  readonly backoff?: { readonly initialDelayMs: number; readonly maxDelayMs: number };
  /** Real ms to wait for the central system's answer; 30 s by default. */
  readonly callTimeoutMs?: number;
}

/** One OCPP message the charge point sent (for the admin API and tests). */
export interface SentCall {
  readonly action: string;
  readonly at: number;
}

/** One command the central system sent the charge point, as it came (for tests: what reached the charger). */
export interface ReceivedCall {
  readonly action: string;
  readonly params: unknown;
  readonly at: number;
}

const CONNECTOR = 1;
/** Who stops a session the central system stops, in the cloud's sessions. */
export const OCPP_ACTOR = "ocpp";
const STOP_REASONS: ReadonlySet<string> = new Set(EV_STOP_REASONS);

const bootAnswer = z.object({
  status: z.enum(["Accepted", "Pending", "Rejected"]),
  interval: z.number().int().min(0),
  currentTime: z.string(),
});
const startAnswer = z.object({
  transactionId: z.number().int(),
  idTagInfo: z.object({ status: z.string() }),
});
const remoteStart = z.object({
  connectorId: z.number().int().optional(),
  idTag: z.string(),
  chargingProfile: z.unknown().optional(),
});
const remoteStop = z.object({ transactionId: z.number().int() });
const chargingProfile = z.object({
  chargingProfileId: z.number().int(),
  stackLevel: z.number().int(),
  chargingProfilePurpose: z.enum(["ChargePointMaxProfile", "TxDefaultProfile", "TxProfile"]),
  transactionId: z.number().int().optional(),
  chargingSchedule: z.object({
    chargingRateUnit: z.enum(["A", "W"]),
    chargingSchedulePeriod: z.array(z.object({ startPeriod: z.number().int(), limit: z.number() })).min(1),
  }),
});
type ChargingProfile = z.infer<typeof chargingProfile>;
const setProfile = z.object({ connectorId: z.number().int(), csChargingProfiles: chargingProfile });
const clearProfile = z.object({
  id: z.number().int().optional(),
  connectorId: z.number().int().optional(),
  chargingProfilePurpose: z.enum(["ChargePointMaxProfile", "TxDefaultProfile", "TxProfile"]).optional(),
  stackLevel: z.number().int().optional(),
});
const changeAvailability = z.object({ connectorId: z.number().int(), type: z.enum(["Inoperative", "Operative"]) });
const reset = z.object({ type: z.enum(["Hard", "Soft"]) });
const trigger = z.object({ requestedMessage: z.string(), connectorId: z.number().int().optional() });
const unlock = z.object({ connectorId: z.number().int() });
const getConfiguration = z.object({ key: z.array(z.string()).optional() });
const changeConfiguration = z.object({ key: z.string(), value: z.string() });

interface Transaction {
  readonly session: Readonly<Session>;
  /** Null until the central system answered StartTransaction. */
  id: number | null;
  stopMeterValues?: () => void;
}

export class OcppChargePoint {
  /** Every call sent, oldest first. */
  readonly sent: SentCall[] = [];
  /** Every command received from the central system, oldest first. */
  readonly received: ReceivedCall[] = [];
  private readonly client: RPCClient;
  /** The simulated charger it speaks for (its local limit is what a charging profile set). */
  readonly charger: LocalCharger;
  private readonly clock: Clock;
  private meterValueIntervalS: number;
  private heartbeatS = 0;
  private booted = false;
  private open = false;
  /** Off while the admin API holds the link down, and after close. */
  private wanted = false;
  private closed = false;
  private openWaiters: (() => void)[] = [];
  private readonly timers: (() => void)[] = [];
  private stopHeartbeat: (() => void) | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Messages go out in order: a transaction's start before its meter values and its stop. */
  private chain: Promise<void> = Promise.resolve();
  private lastStatus: string | undefined;
  private transaction: Transaction | null = null;
  private readonly profiles = new Map<number, ChargingProfile>();
  private pendingInoperative: boolean | undefined;

  constructor(private readonly options: OcppChargePointOptions) {
    this.charger = options.charger;
    this.clock = options.clock;
    this.meterValueIntervalS = options.meterValueIntervalS ?? 60;
    const { RPCClient } = ocppRpc();
    this.client = new RPCClient({
      identity: options.id,
      endpoint: options.url,
      password: options.password,
      protocols: ["ocpp1.6"],
      strictMode: true,
      strictModeValidators: [],
      reconnect: true,
      maxReconnects: Number.POSITIVE_INFINITY,
      callTimeoutMs: options.callTimeoutMs ?? 30_000,
      pingIntervalMs: 30_000,
      deferPingsOnActivity: true,
      respondWithDetailedErrors: false,
      callConcurrency: 1,
      maxBadMessages: Number.POSITIVE_INFINITY,
      wsOpts: {},
      headers: {},
      backoff: {
        initialDelay: options.backoff?.initialDelayMs ?? 1000,
        maxDelay: options.backoff?.maxDelayMs ?? 10_000,
        factor: 2,
        randomisationFactor: 0.25,
      },
    });
    this.client.on("open", () => this.onOpen());
    this.client.on("disconnect", () => {
      this.open = false;
    });
    this.client.on("close", () => {
      this.open = false;
      // ocpp-rpc gave up or was closed: keep trying while the link is wanted.
      if (this.wanted && !this.closed) this.retryConnect();
    });
    this.handleCalls();
  }

  /** Whether the WebSocket to the central system is open. */
  get connected(): boolean {
    return this.open;
  }

  get id(): string {
    return this.options.id;
  }

  /** The simulated charger's UUID. */
  get uuid(): string {
    return this.charger.spec.uuid;
  }

  /** Connects (retrying until it can) and starts watching the charger. */
  start(): void {
    this.timers.push(every(this.clock, this.options.pollMs ?? 1000, () => this.sync()));
    this.reconnect();
  }

  /** The admin API's fault: drops the link and keeps it down until `reconnect`. */
  async disconnect(): Promise<void> {
    this.wanted = false;
    clearTimeout(this.retryTimer);
    this.open = false;
    await this.client.close({ force: true });
  }

  reconnect(): void {
    if (this.closed) return;
    this.wanted = true;
    this.connectOnce();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wanted = false;
    clearTimeout(this.retryTimer);
    for (const cancel of this.timers) cancel();
    this.stopHeartbeat?.();
    this.transaction?.stopMeterValues?.();
    this.wakeReady();
    await this.client.close({ force: true });
  }

  /** Moves the charger to now and reports what changed: a transaction begun or ended, a new status. */
  sync(): void {
    if (this.closed) return;
    this.charger.advanceTo(this.clock.now());
    const session = this.charger.session();
    const tx = this.transaction;
    if (tx && tx.session !== session) this.endTransaction(tx);
    if (session && this.transaction?.session !== session) this.beginTransaction(session);
    if (!this.charger.session() && this.pendingInoperative !== undefined) {
      this.charger.setInoperative(this.pendingInoperative);
      this.pendingInoperative = undefined;
    }
    const status = this.charger.status();
    if (status !== this.lastStatus && this.open && this.booted) {
      this.lastStatus = status;
      this.enqueue(() => this.sendStatus(status));
    }
  }

  // ---- the link ----

  private connectOnce(): void {
    clearTimeout(this.retryTimer);
    this.client.connect().catch(() => this.retryConnect());
  }

  private retryConnect(): void {
    if (!this.wanted || this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connectOnce(), this.options.backoff?.initialDelayMs ?? 1000);
  }

  private onOpen(): void {
    this.open = true;
    if (!this.booted) {
      // Not through the queue: a transaction message waiting there for the boot must not hold it up.
      this.boot().catch(() => undefined);
    } else {
      this.wakeReady();
      // Back after a break: tell the central system where the connector stands.
      this.lastStatus = undefined;
      this.sync();
    }
  }

  /** Open and booted: a transaction's messages wait for both. */
  private untilReady(): Promise<void> {
    if ((this.open && this.booted) || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.openWaiters.push(resolve));
  }

  private wakeReady(): void {
    for (const wake of this.openWaiters) wake();
    this.openWaiters = [];
  }

  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch(() => undefined);
  }

  private async call(action: string, params: Record<string, unknown>): Promise<unknown> {
    this.sent.push({ action, at: this.clock.now() });
    return this.client.call(action, params);
  }

  /** A call that must arrive (a transaction's start or stop): repeated after each reconnect until answered. */
  private async callUntilAnswered(action: string, params: Record<string, unknown>): Promise<unknown> {
    for (;;) {
      await this.untilReady();
      if (this.closed) throw new Error("closed");
      try {
        return await this.call(action, params);
      } catch (error) {
        if (this.open && this.booted) throw error;
      }
    }
  }

  private async boot(): Promise<void> {
    const { spec } = this.charger;
    const answer = bootAnswer.parse(
      await this.call("BootNotification", {
        chargePointVendor: "GivEnergy",
        chargePointModel: spec.type.slice(0, 20),
        chargePointSerialNumber: spec.serialNumber.slice(0, 25),
        firmwareVersion: "sim",
      }),
    );
    this.heartbeatS = answer.interval;
    if (answer.status !== "Accepted") {
      // Pending or Rejected: ask again after the interval the central system gave.
      const cancel = later(this.clock, Math.max(1, answer.interval) * 1000, () => {
        if (this.open) this.boot().catch(() => undefined);
      });
      this.timers.push(cancel);
      return;
    }
    this.booted = true;
    this.wakeReady();
    this.stopHeartbeat?.();
    if (answer.interval > 0) {
      this.stopHeartbeat = every(this.clock, answer.interval * 1000, () =>
        this.enqueue(async () => {
          if (this.open) await this.call("Heartbeat", {});
        }),
      );
    }
    this.lastStatus = undefined;
    this.sync();
  }

  private async sendStatus(status: string): Promise<void> {
    if (!this.open) return;
    await this.call("StatusNotification", {
      connectorId: CONNECTOR,
      errorCode: status === "Faulted" ? "OtherError" : "NoError",
      status,
      timestamp: this.timestamp(),
    });
  }

  // ---- transactions ----

  private beginTransaction(session: Readonly<Session>): void {
    const tx: Transaction = { session, id: null };
    this.transaction = tx;
    this.enqueue(async () => {
      const answer = startAnswer.parse(
        await this.callUntilAnswered("StartTransaction", {
          connectorId: CONNECTOR,
          idTag: session.startedBy.slice(0, 20),
          meterStart: Math.round(session.meterStart * 1000),
          timestamp: new Date(session.startedAt).toISOString(),
        }),
      );
      tx.id = answer.transactionId;
      if (answer.idTagInfo.status !== "Accepted" && this.charger.session() === session) {
        this.charger.stopSession(OCPP_ACTOR, "DeAuthorized");
        this.sync();
        return;
      }
      if (this.transaction === tx) {
        tx.stopMeterValues = every(this.clock, this.meterValueIntervalS * 1000, () =>
          this.enqueue(() => this.sendMeterValues(tx, "Sample.Periodic")),
        );
      }
    });
  }

  private endTransaction(tx: Transaction): void {
    this.transaction = null;
    tx.stopMeterValues?.();
    for (const [id, profile] of this.profiles) {
      if (profile.chargingProfilePurpose === "TxProfile") this.profiles.delete(id);
    }
    this.applyProfiles();
    const { session } = tx;
    const reason = session.stopReason && STOP_REASONS.has(session.stopReason) ? session.stopReason : "Other";
    this.enqueue(async () => {
      await this.callUntilAnswered("StopTransaction", {
        transactionId: tx.id ?? 0,
        meterStop: Math.round((session.meterStop ?? this.charger.reading().registerKwh) * 1000),
        timestamp: new Date(session.stoppedAt ?? this.clock.now()).toISOString(),
        reason,
      });
    });
  }

  private async sendMeterValues(tx: Transaction, context: string): Promise<void> {
    if (!this.open || tx.id === null) return;
    this.charger.advanceTo(this.clock.now());
    const reading = this.charger.reading();
    const { voltage, phases } = this.charger.spec;
    const sampledValue = [
      { value: reading.powerW.toFixed(0), measurand: "Power.Active.Import", unit: "W", context },
      { value: (reading.powerW / (voltage * phases)).toFixed(1), measurand: "Current.Import", unit: "A", context },
      {
        value: (reading.registerKwh * 1000).toFixed(0),
        measurand: "Energy.Active.Import.Register",
        unit: "Wh",
        context,
      },
      ...(reading.socPercent === null
        ? []
        : [{ value: reading.socPercent.toFixed(0), measurand: "SoC", unit: "Percent", context, location: "EV" }]),
    ];
    await this.call("MeterValues", {
      connectorId: CONNECTOR,
      transactionId: tx.id,
      meterValue: [{ timestamp: this.timestamp(), sampledValue }],
    });
  }

  // ---- charging profiles ----

  /** The lower of the transaction's (or the default) profile and the charge point's maximum, amps. */
  private applyProfiles(): void {
    const { voltage, phases } = this.charger.spec;
    const amps = (p: ChargingProfile): number => {
      const period = p.chargingSchedule.chargingSchedulePeriod[0];
      const limit = period?.limit ?? Number.POSITIVE_INFINITY;
      return p.chargingSchedule.chargingRateUnit === "A" ? limit : limit / (voltage * phases);
    };
    const lowest = (purpose: ChargingProfile["chargingProfilePurpose"]): number | undefined => {
      const matching = [...this.profiles.values()].filter((p) => p.chargingProfilePurpose === purpose);
      if (matching.length === 0) return undefined;
      // The highest stack level wins within a purpose.
      const top = Math.max(...matching.map((p) => p.stackLevel));
      return Math.min(...matching.filter((p) => p.stackLevel === top).map(amps));
    };
    const tx = lowest("TxProfile") ?? lowest("TxDefaultProfile");
    const max = lowest("ChargePointMaxProfile");
    const limits = [tx, max].filter((a): a is number => a !== undefined);
    this.charger.setLocalLimit(limits.length === 0 ? null : Math.floor(Math.min(...limits) * 10) / 10);
  }

  // ---- what the central system asks ----

  /** Answers an action, noting each call of it as received. */
  private handle(
    action: string,
    answer: (call: { readonly params: unknown }) => Promise<Record<string, unknown>>,
  ): void {
    this.client.handle(action, async ({ params }) => {
      this.received.push({ action, params, at: this.clock.now() });
      return answer({ params });
    });
  }

  private handleCalls(): void {
    const after = (work: () => void): void => {
      // Answer first, then act, as a charger does (the answer leaves before the messages the act causes).
      setImmediate(() => {
        if (this.closed) return;
        this.charger.advanceTo(this.clock.now());
        work();
        this.sync();
      });
    };
    this.handle("RemoteStartTransaction", async ({ params }) => {
      const request = remoteStart.parse(params);
      this.charger.advanceTo(this.clock.now());
      const status = this.charger.status();
      const ok =
        (request.connectorId === undefined || request.connectorId === CONNECTOR) &&
        this.charger.carPlugged() &&
        !this.charger.session() &&
        (status === "Preparing" || status === "Finishing");
      if (!ok) return { status: "Rejected" };
      const profile = chargingProfile.safeParse(request.chargingProfile);
      after(() => {
        if (profile.success && profile.data.chargingProfilePurpose === "TxProfile") {
          this.profiles.set(profile.data.chargingProfileId, profile.data);
        }
        this.charger.startSession(request.idTag);
        this.applyProfiles();
      });
      return { status: "Accepted" };
    });
    this.handle("RemoteStopTransaction", async ({ params }) => {
      const { transactionId } = remoteStop.parse(params);
      const tx = this.transaction;
      if (!tx || tx.id !== transactionId) return { status: "Rejected" };
      after(() => this.charger.stopSession(OCPP_ACTOR, "Remote"));
      return { status: "Accepted" };
    });
    this.handle("SetChargingProfile", async ({ params }) => {
      const { connectorId, csChargingProfiles: profile } = setProfile.parse(params);
      if (connectorId > CONNECTOR) return { status: "Rejected" };
      if (profile.chargingProfilePurpose === "TxProfile") {
        const tx = this.transaction;
        if (!tx || (profile.transactionId !== undefined && profile.transactionId !== tx.id)) {
          return { status: "Rejected" };
        }
      }
      // A profile replaces one with its id, and one of the same purpose and stack level.
      for (const [id, held] of this.profiles) {
        if (held.chargingProfilePurpose === profile.chargingProfilePurpose && held.stackLevel === profile.stackLevel) {
          this.profiles.delete(id);
        }
      }
      this.profiles.set(profile.chargingProfileId, profile);
      after(() => this.applyProfiles());
      return { status: "Accepted" };
    });
    this.handle("ClearChargingProfile", async ({ params }) => {
      const request = clearProfile.parse(params);
      let cleared = 0;
      for (const [id, held] of this.profiles) {
        if (
          (request.id === undefined || request.id === id) &&
          (request.chargingProfilePurpose === undefined ||
            request.chargingProfilePurpose === held.chargingProfilePurpose) &&
          (request.stackLevel === undefined || request.stackLevel === held.stackLevel)
        ) {
          this.profiles.delete(id);
          cleared++;
        }
      }
      if (cleared === 0) return { status: "Unknown" };
      after(() => this.applyProfiles());
      return { status: "Accepted" };
    });
    this.handle("ChangeAvailability", async ({ params }) => {
      const request = changeAvailability.parse(params);
      if (request.connectorId > CONNECTOR) return { status: "Rejected" };
      const inoperative = request.type === "Inoperative";
      if (inoperative && this.charger.session()) {
        // Takes effect when the transaction ends.
        this.pendingInoperative = true;
        return { status: "Scheduled" };
      }
      this.pendingInoperative = undefined;
      after(() => this.charger.setInoperative(inoperative));
      return { status: "Accepted" };
    });
    this.handle("Reset", async ({ params }) => {
      const { type } = reset.parse(params);
      after(() => {
        this.charger.reboot(type === "Hard", OCPP_ACTOR);
        this.sync();
        // The charger restarts: the link drops once the stop is out, and it boots again.
        this.enqueue(async () => {
          this.booted = false;
          this.stopHeartbeat?.();
          await this.client.close({ awaitPending: true });
          if (this.wanted) this.connectOnce();
        });
      });
      return { status: "Accepted" };
    });
    this.handle("TriggerMessage", async ({ params }) => {
      const { requestedMessage } = trigger.parse(params);
      const send: Record<string, () => Promise<void>> = {
        BootNotification: async () => {
          if (this.open) await this.boot();
        },
        Heartbeat: async () => {
          await this.call("Heartbeat", {});
        },
        StatusNotification: () => this.sendStatus(this.charger.status()),
        MeterValues: async () => {
          const tx = this.transaction;
          if (tx) await this.sendMeterValues(tx, "Trigger");
        },
      };
      const step = send[requestedMessage];
      if (!step) return { status: "NotImplemented" };
      setImmediate(() => this.enqueue(step));
      return { status: "Accepted" };
    });
    this.handle("UnlockConnector", async ({ params }) => {
      const { connectorId } = unlock.parse(params);
      if (connectorId !== CONNECTOR) return { status: "NotSupported" };
      after(() => this.charger.stopSession(OCPP_ACTOR, "UnlockCommand"));
      return { status: "Unlocked" };
    });
    this.handle("GetConfiguration", async ({ params }) => {
      const { key } = getConfiguration.parse(params);
      const known: Record<string, string> = {
        HeartbeatInterval: String(this.heartbeatS),
        MeterValueSampleInterval: String(this.meterValueIntervalS),
        NumberOfConnectors: "1",
      };
      const wanted = key && key.length > 0 ? key : Object.keys(known);
      return {
        configurationKey: wanted
          .filter((k) => k in known)
          .map((k) => ({ key: k, readonly: k === "NumberOfConnectors", value: known[k] })),
        unknownKey: wanted.filter((k) => !(k in known)),
      };
    });
    this.handle("ChangeConfiguration", async ({ params }) => {
      const { key, value } = changeConfiguration.parse(params);
      const seconds = Number(value);
      if (!Number.isInteger(seconds) || seconds < 0) return { status: "Rejected" };
      if (key === "MeterValueSampleInterval") {
        if (seconds === 0) return { status: "Rejected" };
        this.meterValueIntervalS = seconds;
        return { status: "Accepted" };
      }
      if (key === "HeartbeatInterval") {
        this.heartbeatS = seconds;
        this.stopHeartbeat?.();
        if (seconds > 0) {
          this.stopHeartbeat = every(this.clock, seconds * 1000, () =>
            this.enqueue(async () => {
              if (this.open) await this.call("Heartbeat", {});
            }),
          );
        }
        return { status: "Accepted" };
      }
      return { status: "NotSupported" };
    });
  }

  private timestamp(): string {
    return new Date(this.clock.now()).toISOString();
  }
}
