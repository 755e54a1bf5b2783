import { createServer, type Server, type Socket } from "node:net";
import {
  buildBroadcast,
  buildErrorResponse,
  buildHeartbeat,
  buildResponse,
  buildWriteResponse,
  crcHolds,
  type Frame,
  FrameError,
  Framer,
  ModbusFunction,
  parseFrame,
} from "../../local/index.js";
import { type Clock, every, later } from "../../time/index.js";
import { type ChainDevice, CONTROLLER, CONTROLLER_FACADE, type DongleChain, type Range } from "./device-chain.js";

export interface DongleOptions {
  readonly chain: DongleChain;
  /** The simulator's clock: the registers are read at its instant, and every delay runs on it. */
  readonly clock: Clock;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** How long the dongle takes to answer a request; 0 answers at once (tests on a pinned clock). */
  readonly responseDelayMs: number;
  /** Between two heartbeats; a client that leaves three unanswered is closed. */
  readonly heartbeatMs: number;
}

/** The admin faults of one dongle (docs/simulator.md). */
export interface DongleFaults {
  /** Drop every connection this often, ms; undefined: never. */
  dropEveryMs?: number;
  /** The next N frames the dongle answers with go out with a zero-filled tail (their CRC fails). */
  corruptFrames: number;
  /** The battery's addresses answer nothing. */
  silentBattery: boolean;
  /** Send a LAN-settings broadcast this often, ms; undefined: never. */
  broadcastEveryMs?: number;
  /** A write's echo goes out this much later, ms (the write is applied at once); undefined: at once. */
  echoDelayMs?: number;
  /**
   * The device serial every answer carries (reads, echoes and error responses, at every
   * address), as a dongle that now reaches another inverter, or one no device has, would send;
   * undefined: each device's own.
   */
  answerAs?: string;
}

export interface DongleStats {
  requests: number;
  /** Single-register writes received, applied, and refused with an error response. */
  writes: number;
  writesApplied: number;
  writesRefused: number;
  responses: number;
  errorResponses: number;
  unanswered: number;
  heartbeatsSent: number;
  heartbeatsEchoed: number;
  closedForMissedHeartbeats: number;
  drops: number;
  corrupted: number;
  broadcasts: number;
}

interface Client {
  readonly socket: Socket;
  readonly framer: Framer;
  /** Heartbeats sent and not echoed, in a row. */
  missed: number;
  awaitingEcho: boolean;
}

type Request = Extract<Frame, { kind: "request" }>;

export interface WriteRecord {
  readonly clientPort: number;
  readonly address: number;
  readonly register: number;
  readonly value: number;
  /** The simulated instant it arrived. */
  readonly at: number;
  /** Set once answered: the echo went out, or the error response and why. */
  outcome?: "applied" | string;
}

const MISSED_HEARTBEATS_TO_CLOSE = 3;
const BROADCAST_TEXT = "192.168.0.50,255.255.255.0,192.168.0.1";

const inside = (ranges: readonly Range[], base: number, count: number): boolean =>
  ranges.some((range) => base >= range.from && base + count - 1 <= range.to);

/**
 * One simulated inverter dongle on TCP: the framed protocol of src/local/, serving the registers
 * of its chain at the simulator's instant. It sends heartbeats (a client that misses three is
 * closed), answers one request at a time after `responseDelayMs`, sends every answer to every
 * connected client, refuses registers its devices lack with an error response, and stays silent
 * for addresses with no device (as a real chain does). A single-register write (0x06) to an
 * inverter's allowlisted register changes the same settings the simulator's cloud serves and is
 * echoed; any other write gets an error response. Every write is recorded (`writesReceived`).
 */
export class SimDongle {
  private readonly server: Server;
  private readonly clients = new Set<Client>();
  private readonly queue: Request[] = [];
  private busy = false;
  private beat = 0;
  private readonly cancels: (() => void)[] = [];
  private cancelDrop: (() => void) | undefined;
  private cancelBroadcast: (() => void) | undefined;
  private cancelAnswer: (() => void) | undefined;
  private closed = false;
  private readonly writeRecords = new WeakMap<Request, WriteRecord>();
  private boundPort = 0;
  readonly faults: DongleFaults = { corruptFrames: 0, silentBattery: false };
  readonly stats: DongleStats = {
    requests: 0,
    writes: 0,
    writesApplied: 0,
    writesRefused: 0,
    responses: 0,
    errorResponses: 0,
    unanswered: 0,
    heartbeatsSent: 0,
    heartbeatsEchoed: 0,
    closedForMissedHeartbeats: 0,
    drops: 0,
    corrupted: 0,
    broadcasts: 0,
  };

  constructor(private readonly options: DongleOptions) {
    this.server = createServer((socket) => this.accept(socket));
  }

  get chain(): DongleChain {
    return this.options.chain;
  }

  get host(): string {
    return this.options.host;
  }

  get port(): number {
    return this.boundPort;
  }

  /**
   * Requests received by client, keyed by the client's own (remote) port; kept after it leaves,
   * so a test can tell which connection asked and which only listened.
   */
  readonly requestsByClientPort = new Map<number, number>();

  /** Every single-register write received, in order, with the client's (remote) port and what came of it. */
  readonly writesReceived: WriteRecord[] = [];

  get clientCount(): number {
    return this.clients.size;
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    const address = this.server.address();
    this.boundPort = address !== null && typeof address === "object" ? address.port : this.options.port;
    this.cancels.push(
      every(this.options.clock, this.options.heartbeatMs, () => this.heartbeat(), { background: true }),
    );
    return this.boundPort;
  }

  /** Changes the faults given; the others stay. */
  setFaults(change: Partial<DongleFaults>): void {
    if ("corruptFrames" in change && change.corruptFrames !== undefined)
      this.faults.corruptFrames = change.corruptFrames;
    if ("silentBattery" in change && change.silentBattery !== undefined)
      this.faults.silentBattery = change.silentBattery;
    if ("dropEveryMs" in change) {
      this.cancelDrop?.();
      this.cancelDrop = undefined;
      this.faults.dropEveryMs = change.dropEveryMs;
      if (change.dropEveryMs)
        this.cancelDrop = every(this.options.clock, change.dropEveryMs, () => this.dropAll(), { background: true });
    }
    if ("answerAs" in change) this.faults.answerAs = change.answerAs || undefined;
    if ("echoDelayMs" in change) this.faults.echoDelayMs = change.echoDelayMs || undefined;
    if ("broadcastEveryMs" in change) {
      this.cancelBroadcast?.();
      this.cancelBroadcast = undefined;
      this.faults.broadcastEveryMs = change.broadcastEveryMs;
      if (change.broadcastEveryMs)
        this.cancelBroadcast = every(this.options.clock, change.broadcastEveryMs, () => this.broadcast(), {
          background: true,
        });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const cancel of [...this.cancels, this.cancelDrop, this.cancelBroadcast, this.cancelAnswer]) cancel?.();
    this.queue.length = 0;
    for (const client of this.clients) client.socket.destroy();
    this.clients.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    const client: Client = { socket, framer: new Framer(), missed: 0, awaitingEcho: false };
    this.clients.add(client);
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.receive(client, chunk));
    socket.on("error", () => {
      // "close" follows.
    });
    socket.on("close", () => this.clients.delete(client));
  }

  private receive(client: Client, chunk: Uint8Array): void {
    for (const event of client.framer.push(chunk)) {
      if (event.type !== "frame" || !event.crcOk) continue;
      let frame: Frame;
      try {
        frame = parseFrame(event.bytes);
      } catch (error) {
        if (error instanceof FrameError) continue;
        throw error;
      }
      if (frame.kind === "heartbeat") {
        client.missed = 0;
        client.awaitingEcho = false;
        this.stats.heartbeatsEchoed++;
      } else if (frame.kind === "request") {
        this.stats.requests++;
        const from = client.socket.remotePort ?? 0;
        this.requestsByClientPort.set(from, (this.requestsByClientPort.get(from) ?? 0) + 1);
        if (frame.function === ModbusFunction.writeSingle) {
          this.stats.writes++;
          const record: WriteRecord = {
            clientPort: from,
            address: frame.address,
            register: frame.base,
            value: frame.count,
            at: this.options.clock.now(),
          };
          this.writesReceived.push(record);
          this.writeRecords.set(frame, record);
        }
        this.queue.push(frame);
        this.next();
      }
    }
  }

  /** Answers the queue's first request once the one before has gone out. */
  private next(): void {
    if (this.busy || this.closed) return;
    const request = this.queue.shift();
    if (!request) return;
    this.busy = true;
    const answer = (): void => {
      this.cancelAnswer = undefined;
      this.answer(request);
      this.busy = false;
      this.next();
    };
    if (this.options.responseDelayMs > 0)
      this.cancelAnswer = later(this.options.clock, this.options.responseDelayMs, answer);
    else queueMicrotask(answer);
  }

  /** The serial an answer from `device` carries: its own, or the one the answer_as fault says. */
  private serialOf(device: ChainDevice): string {
    return this.faults.answerAs ?? device.serial;
  }

  private device(address: number): ChainDevice | undefined {
    const wanted = address === CONTROLLER_FACADE ? CONTROLLER : address;
    return this.options.chain.devices.find((device) => device.address === wanted);
  }

  private answer(request: Request): void {
    if (this.closed) return;
    const device = this.device(request.address);
    if (!device || (device.battery && this.faults.silentBattery)) {
      this.stats.unanswered++;
      return;
    }
    const dongleSerial = this.options.chain.dongleSerial;
    if (request.function === ModbusFunction.writeSingle) {
      const echo = this.corrupting(this.written(request, device));
      const delay = this.faults.echoDelayMs;
      if (delay) this.cancels.push(later(this.options.clock, delay, () => this.send(echo)));
      else this.send(echo);
      return;
    }
    const reading = request.function === ModbusFunction.readHolding || request.function === ModbusFunction.readInput;
    const ranges = request.function === ModbusFunction.readHolding ? device.holding : device.input;
    let bytes: Uint8Array;
    if (reading && inside(ranges, request.base, request.count)) {
      const file = this.options.chain.registers(this.options.clock.now()).get(device.address);
      const space = request.function === ModbusFunction.readHolding ? file?.holding : file?.input;
      const values = Array.from({ length: request.count }, (_, index) => space?.get(request.base + index) ?? 0);
      bytes = buildResponse({
        dongleSerial,
        address: request.address,
        function: request.function,
        deviceSerial: this.serialOf(device),
        base: request.base,
        values,
      });
      this.stats.responses++;
    } else {
      // Registers this model lacks, and functions it does not know.
      bytes = buildErrorResponse({
        dongleSerial,
        address: request.address,
        function: request.function,
        deviceSerial: this.serialOf(device),
        base: request.base,
        count: request.count,
      });
      this.stats.errorResponses++;
    }
    this.send(this.corrupting(bytes));
  }

  /** A write applied to the inverter's settings and echoed, or refused with an error response. */
  private written(request: Request, device: ChainDevice): Uint8Array {
    const dongleSerial = this.options.chain.dongleSerial;
    const register = request.base;
    const answer = this.options.chain.write?.(device.address, register, request.count) ?? {
      ok: false,
      reason: "this device takes no writes",
    };
    const record = this.writeRecords.get(request);
    if (record) record.outcome = answer.ok ? "applied" : answer.reason;
    if (answer.ok) {
      this.stats.writesApplied++;
      return buildWriteResponse({
        dongleSerial,
        address: request.address,
        deviceSerial: this.serialOf(device),
        register,
        value: answer.value,
      });
    }
    this.stats.writesRefused++;
    return buildErrorResponse({
      dongleSerial,
      address: request.address,
      function: request.function,
      deviceSerial: this.serialOf(device),
      base: register,
      count: request.count,
    });
  }

  private corrupting(bytes: Uint8Array): Uint8Array {
    if (this.faults.corruptFrames <= 0) return bytes;
    this.faults.corruptFrames--;
    this.stats.corrupted++;
    return corruptTail(bytes);
  }

  private send(bytes: Uint8Array): void {
    for (const client of this.clients) client.socket.write(bytes);
  }

  private heartbeat(): void {
    this.beat = (this.beat + 1) & 0xff;
    const bytes = buildHeartbeat(this.options.chain.dongleSerial, this.beat);
    for (const client of [...this.clients]) {
      if (client.awaitingEcho) client.missed++;
      if (client.missed >= MISSED_HEARTBEATS_TO_CLOSE) {
        this.stats.closedForMissedHeartbeats++;
        this.clients.delete(client);
        client.socket.destroy();
        continue;
      }
      client.socket.write(bytes);
      client.awaitingEcho = true;
      this.stats.heartbeatsSent++;
    }
  }

  private dropAll(): void {
    if (this.clients.size > 0) this.stats.drops++;
    for (const client of this.clients) client.socket.destroy();
    this.clients.clear();
  }

  private broadcast(): void {
    this.stats.broadcasts++;
    this.send(buildBroadcast(this.options.chain.dongleSerial, BROADCAST_TEXT));
  }
}

/** The frame with its last four bytes zeroed, as the captured CRC failures show them. */
export function corruptTail(bytes: Uint8Array): Uint8Array {
  const copy = bytes.slice();
  copy.fill(0, Math.max(0, copy.length - 4));
  if (crcHolds(copy)) copy[copy.length - 1] = 0xff;
  return copy;
}
