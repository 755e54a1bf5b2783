import { createConnection, type Socket } from "node:net";
import { type Clock, later } from "../time/index.js";
import {
  buildReadRequest,
  buildWriteRequest,
  type Frame,
  FrameError,
  MAX_REGISTERS,
  ModbusFunction,
  parseFrame,
} from "./frame.js";
import { Framer } from "./framer.js";
import { DONGLE_GAP_MS } from "./pacing.js";
import {
  describe,
  deviceOf,
  keyOf,
  notAsked,
  type Operation,
  type Read,
  SessionError,
  type Write,
} from "./session-operation.js";

export {
  type Read,
  type ReadFunction,
  SessionError,
  type SessionErrorKind,
  type Write,
} from "./session-operation.js";

export type SessionState = "idle" | "connecting" | "connected" | "waiting to reconnect" | "closed";

export interface SessionOptions {
  readonly host: string;
  /** The dongle's port, 8899 on real ones. */
  readonly port: number;
  readonly clock: Clock;
  /** The serial put in requests; dongles answer whatever it is. */
  readonly clientSerial?: string;
  /** Least time between two frames sent (the dongle drops frames that come faster). */
  readonly minGapMs?: number;
  /** Up to this much more, at random, so several clients do not fall into step. */
  readonly jitterMs?: number;
  readonly requestTimeoutMs?: number;
  /** First reconnect delay; it doubles on each failure in a row up to `maxBackoffMs`, plus up to a fifth more at random. */
  readonly backoffMs?: number;
  readonly maxBackoffMs?: number;
  /** 0 <= x < 1; Math.random by default, a fixed one in tests. */
  readonly random?: () => number;
  /** Every frame the dongle sent, asked for or not (answers to other clients are normal). */
  readonly onFrame?: (frame: Frame) => void;
  readonly onState?: (state: SessionState, detail?: string) => void;
  /** How to open the connection (a test may wrap it); net.createConnection by default. */
  readonly connect?: (port: number, host: string) => Socket;
}

interface Pending {
  readonly operation: Operation;
  readonly resolve: (values: number[]) => void;
  readonly reject: (error: Error) => void;
  /** Shared by the parts of one read: when one fails, the rest are not asked. */
  readonly group: object;
  tries: number;
}

const DEFAULTS = {
  clientSerial: "AB1234G000",
  minGapMs: DONGLE_GAP_MS,
  jitterMs: 100,
  requestTimeoutMs: 5_000,
  backoffMs: 1_000,
  maxBackoffMs: 60_000,
};

/** A reconnect waits up to this fraction more than its back-off, at random. */
const BACKOFF_JITTER = 0.2;

const seconds = (ms: number): string => `${(ms / 1_000).toFixed(1)} s`;

/** "no answer", or what came instead: frames that failed their CRC or could not be read. */
const noAnswer = (damaged: number): string =>
  damaged === 0 ? "no answer" : `no whole answer (${damaged} damaged frame(s): bad CRC or garbage)`;

/**
 * One TCP session with one dongle. It echoes the dongle's heartbeats (a dongle closes a client
 * that misses three), sends one request at a time with at least `minGapMs` (plus jitter) between
 * frames, splits reads into requests of at most 60 registers, and matches answers by device,
 * function, base and count (answers to other clients pass to `onFrame` as normal). All its
 * timing is on the injected clock.
 *
 * It never gives up on the dongle: a lost connection is opened again after `backoffMs`, doubling
 * with each failure in a row up to `maxBackoffMs` (plus jitter), for as long as the session
 * lives. Nothing waits behind that back-off:
 * - a request asked while connected waits its turn;
 * - one asked while a connection is being opened (right after `start()`, or a reconnect under
 *   way) waits for that attempt only, and fails when it fails;
 * - one asked while waiting to reconnect (or before `start()`, or after `close()`) fails at once,
 *   with kind "connection", naming host:port, why, and when the next attempt is;
 * - when the connection drops, what was queued fails at once. The read in flight (with the rest
 *   of its parts) is asked again on the next connection, once: a dongle that closed it halfway
 *   through an answer is there, and that attempt comes after `backoffMs` (plus jitter).
 *
 * One write is one frame: a write is never sent again. One that hears no echo in time fails
 * ("timeout", it may or may not have been applied), and nothing else is sent for another
 * `requestTimeoutMs` unless its echo comes first (counted in `stats.lateEchoes`), so a late echo
 * is never taken for the answer to a later request. A write in flight when the connection drops
 * fails ("connection", may or may not have been applied).
 */
export class DongleSession {
  private readonly options: Required<Omit<SessionOptions, "onFrame" | "onState" | "connect">> &
    Pick<SessionOptions, "onFrame" | "onState" | "connect">;
  private socket: Socket | undefined;
  private framer = new Framer();
  private current: SessionState = "idle";
  private readonly queue: Pending[] = [];
  private inFlight: { pending: Pending; cancelTimeout: () => void } | undefined;
  /** A write that timed out: nothing else is sent until its echo comes late or another timeout passes. */
  private lateEcho: { write: Write; cancel: () => void } | undefined;
  /** Frames waiting for the gap, heartbeat echoes first. */
  private readonly outbox: { bytes: Uint8Array; request?: Pending }[] = [];
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private cancelPump: (() => void) | undefined;
  private cancelReconnect: (() => void) | undefined;
  private failures = 0;
  /** Why the last connection ended or could not be opened, and when (clock ms) the next attempt is. */
  private lastFailure = "";
  private nextAttemptAt = 0;
  readonly stats = {
    heartbeatsEchoed: 0,
    unsolicited: 0,
    timeouts: 0,
    crcFailures: 0,
    reconnects: 0,
    /** Echoes of writes that had already timed out. */
    lateEchoes: 0,
    /** Bytes that began no frame (noise, another protocol), counted per run. */
    garbage: 0,
  };

  constructor(options: SessionOptions) {
    this.options = { ...DEFAULTS, random: Math.random, ...options };
  }

  get state(): SessionState {
    return this.current;
  }

  start(): void {
    if (this.current !== "idle") return;
    this.open();
  }

  /** Reads `count` registers from `base`, in requests of at most 60; resolves with the values in order. */
  async read(read: Read): Promise<number[]> {
    const parts: Read[] = [];
    for (let offset = 0; offset < read.count; offset += MAX_REGISTERS) {
      const part = { ...read, base: read.base + offset, count: Math.min(MAX_REGISTERS, read.count - offset) };
      buildReadRequest({ dongleSerial: this.options.clientSerial, ...part }); // validates before queueing
      parts.push(part);
    }
    this.admit({ kind: "read", read });
    const group = {};
    const answers = parts.map(
      (part) =>
        new Promise<number[]>((resolve, reject) =>
          this.queue.push({ operation: { kind: "read", read: part }, resolve, reject, group, tries: 0 }),
        ),
    );
    this.next();
    return (await Promise.all(answers)).flat();
  }

  /**
   * Writes one holding register (function 0x06), queued with the reads and paced like them.
   * Resolves when the device echoes the same register and value; rejects with a SessionError
   * when the echo differs, the device answers an error, or no echo comes in time. One write is
   * one frame: it is never sent again, not after a timeout nor after a dropped connection.
   */
  async write(write: Write): Promise<void> {
    buildWriteRequest({ dongleSerial: this.options.clientSerial, ...write }); // validates before queueing
    const operation: Operation = { kind: "write", write };
    this.admit(operation);
    await new Promise<number[]>((resolve, reject) => {
      this.queue.push({ operation, resolve, reject, group: {}, tries: 0 });
      this.next();
    });
  }

  /** Ends the session: pending requests fail, the socket closes, no reconnect. */
  close(): void {
    if (this.current === "closed") return;
    this.stop(new SessionError(`the session with ${this.where()} was closed`));
  }

  /** Throws unless a request may queue now: while connected, or for the connection attempt under way. */
  private admit(operation: Operation): void {
    if (this.current === "connected" || this.current === "connecting") return;
    if (this.current === "waiting to reconnect") {
      const inMs = Math.max(0, this.nextAttemptAt - this.options.clock.now());
      throw new SessionError(
        `not connected to ${this.where()} (${this.lastFailure}); the next attempt is in ${seconds(inMs)}: ${notAsked(operation)}`,
        "connection",
        true,
      );
    }
    throw new SessionError(
      `the session with ${this.where()} ${this.current === "idle" ? "is not started" : "was closed"}: ${notAsked(operation)}`,
      "connection",
      true,
    );
  }

  /** Fails a request, and the parts of the same read still queued. */
  private fail(pending: Pending, error: SessionError): void {
    pending.reject(error);
    for (const sibling of this.queue.filter((queued) => queued.group === pending.group)) {
      this.queue.splice(this.queue.indexOf(sibling), 1);
      sibling.reject(error);
    }
  }

  private where(): string {
    return `${this.options.host}:${this.options.port}`;
  }

  private setState(state: SessionState, detail?: string): void {
    this.current = state;
    this.options.onState?.(state, detail);
  }

  private open(): void {
    this.setState("connecting");
    this.framer = new Framer();
    const connect = this.options.connect ?? ((port: number, host: string) => createConnection({ port, host }));
    const socket = connect(this.options.port, this.options.host);
    this.socket = socket;
    let failure: string | undefined;
    socket.setNoDelay(true);
    socket.on("connect", () => {
      if (this.socket !== socket) return;
      this.failures = 0;
      this.setState("connected");
      this.next();
      this.pump();
    });
    socket.on("data", (chunk: Buffer) => {
      if (this.socket === socket) this.receive(chunk);
    });
    socket.on("error", (error) => {
      failure ??= error.message; // "close" follows and handles it
    });
    socket.on("close", () => {
      if (this.socket !== socket) return;
      this.lost(failure ?? (this.current === "connected" ? "the dongle closed it" : "closed before it was up"));
    });
  }

  private lost(reason: string): void {
    const where = this.where();
    const dropped =
      this.current === "connected" ? `the connection to ${where} dropped` : `could not connect to ${where}`;
    this.socket = undefined;
    this.cancelPump?.();
    this.cancelPump = undefined;
    this.endLateEcho();
    const flying = this.inFlight?.pending;
    this.inFlight?.cancelTimeout();
    this.inFlight = undefined;
    const waiting = [...this.outbox.flatMap((item) => (item.request ? [item.request] : [])), ...this.queue];
    this.outbox.length = 0;
    this.queue.length = 0;

    this.failures++;
    const backoff = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (this.failures - 1));
    const delay = Math.round(backoff * (1 + BACKOFF_JITTER * this.options.random()));
    this.lastFailure = reason;
    this.nextAttemptAt = this.options.clock.now() + delay;
    this.setState("waiting to reconnect", `in ${delay} ms (${reason})`);
    this.cancelReconnect = later(this.options.clock, delay, () => {
      this.cancelReconnect = undefined;
      this.stats.reconnects++;
      this.open();
    });

    if (flying?.operation.kind === "read" && flying.tries < 2) {
      this.queue.push(flying, ...waiting.filter((pending) => pending.group === flying.group));
    } else if (flying) {
      const { operation } = flying;
      flying.reject(
        new SessionError(
          operation.kind === "write"
            ? `${dropped} (${reason}) before ${deviceOf(operation)} echoed ${describe(operation)}: it may or may not have been applied, and it is not sent again`
            : `${dropped} again (${reason}) during ${describe(operation)} on ${deviceOf(operation)}, asked twice`,
        ),
      );
    }
    for (const pending of waiting)
      if (!this.queue.includes(pending))
        pending.reject(new SessionError(`${dropped} (${reason}): ${notAsked(pending.operation)}`, "connection", true));
  }

  private stop(error: SessionError): void {
    this.setState("closed", error.message);
    this.cancelReconnect?.();
    this.cancelPump?.();
    this.endLateEcho();
    this.inFlight?.cancelTimeout();
    const pending = [
      ...(this.inFlight ? [this.inFlight.pending] : []),
      ...this.outbox.flatMap((item) => (item.request ? [item.request] : [])),
      ...this.queue,
    ];
    this.inFlight = undefined;
    this.queue.length = 0;
    this.outbox.length = 0;
    for (const request of pending) request.reject(error);
    const socket = this.socket;
    this.socket = undefined;
    socket?.destroy();
  }

  private receive(chunk: Uint8Array): void {
    for (const event of this.framer.push(chunk)) {
      if (event.type === "stray") {
        this.stats.garbage++;
        continue;
      }
      if (event.type === "truncated") {
        this.stats.crcFailures++;
        continue;
      }
      let frame: Frame;
      try {
        frame = parseFrame(event.bytes);
      } catch (error) {
        if (error instanceof FrameError) this.stats.crcFailures++;
        continue;
      }
      if (frame.kind === "crc-failure") this.stats.crcFailures++;
      if (frame.kind === "heartbeat") {
        this.outbox.unshift({ bytes: event.bytes });
        this.stats.heartbeatsEchoed++;
        this.pump();
      }
      if ((frame.kind === "response" || frame.kind === "error") && !this.echoesLate(frame) && !this.answers(frame))
        this.stats.unsolicited++;
      this.options.onFrame?.(frame);
    }
  }

  /** Whether this is the echo (or error response) of the write that timed out, come late. */
  private echoesLate(frame: Extract<Frame, { kind: "response" | "error" }>): boolean {
    const write = this.lateEcho?.write;
    if (
      !write ||
      frame.function !== ModbusFunction.writeSingle ||
      frame.address !== write.address ||
      frame.base !== write.register ||
      (frame.kind === "response" && frame.count !== write.value)
    )
      return false;
    this.stats.lateEchoes++;
    this.endLateEcho();
    this.next();
    return true;
  }

  private endLateEcho(): void {
    this.lateEcho?.cancel();
    this.lateEcho = undefined;
  }

  /** Settles the request in flight when this is its answer. */
  private answers(frame: Extract<Frame, { kind: "response" | "error" }>): boolean {
    const flying = this.inFlight;
    if (!flying) return false;
    const { operation } = flying.pending;
    const key =
      frame.function === ModbusFunction.writeSingle
        ? `${frame.address}/${frame.function}/${frame.base}`
        : `${frame.address}/${frame.function}/${frame.base}/${frame.count}`;
    if (key !== keyOf(operation)) return false;
    flying.cancelTimeout();
    this.inFlight = undefined;
    if (frame.kind === "error") {
      this.fail(
        flying.pending,
        new SessionError(`${deviceOf(operation)} refused ${describe(operation)} (error response)`, "refused"),
      );
    } else if (operation.kind === "write") {
      // A write's answer echoes the register and the value the device took (in the count's place).
      if (frame.count === operation.write.value) flying.pending.resolve([frame.count]);
      else
        this.fail(
          flying.pending,
          new SessionError(
            `${deviceOf(operation)} echoed ${frame.count} to holding register ${frame.base} for ${describe(operation)}: it did not take the value sent`,
            "echo",
          ),
        );
    } else {
      flying.pending.resolve(frame.values.slice(0, frame.count));
    }
    this.next();
    return true;
  }

  /** Puts the next request in the outbox when none is in flight. */
  private next(): void {
    if (this.current !== "connected" || this.inFlight || this.lateEcho || this.outbox.some((item) => item.request))
      return;
    const pending = this.queue.shift();
    if (!pending) return;
    const { operation } = pending;
    const dongleSerial = this.options.clientSerial;
    this.outbox.push({
      bytes:
        operation.kind === "read"
          ? buildReadRequest({ dongleSerial, ...operation.read })
          : buildWriteRequest({ dongleSerial, ...operation.write }),
      request: pending,
    });
    this.pump();
  }

  /** Sends the outbox's first frame once the gap since the last frame has passed. */
  private pump(): void {
    if (this.cancelPump || !this.socket || this.current !== "connected" || this.outbox.length === 0) return;
    const gap = this.options.minGapMs + Math.round(this.options.jitterMs * this.options.random());
    const wait = Math.max(0, this.lastSentAt + gap - this.options.clock.now());
    this.cancelPump = later(this.options.clock, wait, () => {
      this.cancelPump = undefined;
      const item = this.outbox.shift();
      const socket = this.socket;
      if (!item || !socket) return;
      socket.write(item.bytes);
      this.lastSentAt = this.options.clock.now();
      if (item.request) this.flying(item.request);
      this.pump();
    });
  }

  private flying(pending: Pending): void {
    pending.tries++;
    const damaged = (): number => this.stats.crcFailures + this.stats.garbage;
    const damagedBefore = damaged();
    const cancelTimeout = later(this.options.clock, this.options.requestTimeoutMs, () => {
      if (this.inFlight?.pending !== pending) return;
      this.inFlight = undefined;
      this.stats.timeouts++;
      const { operation } = pending;
      if (operation.kind === "write") {
        // Sending it again could apply it twice, and its late echo would then answer the copy:
        // the line is held for the echo instead, so it cannot be taken for another's answer.
        const cancel = later(this.options.clock, this.options.requestTimeoutMs, () => {
          this.lateEcho = undefined;
          this.next();
        });
        this.lateEcho = { write: operation.write, cancel };
      }
      this.fail(
        pending,
        new SessionError(
          `${noAnswer(damaged() - damagedBefore)} from ${deviceOf(operation)} for ${describe(operation)} within ${this.options.requestTimeoutMs} ms${operation.kind === "write" ? "; it may or may not have been applied, and it is not sent again" : ""}`,
          "timeout",
        ),
      );
      this.next();
    });
    this.inFlight = { pending, cancelTimeout };
  }
}
