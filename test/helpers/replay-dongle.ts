import { createServer, type Server, type Socket } from "node:net";
import {
  buildErrorResponse,
  buildHeartbeat,
  buildResponse,
  type Frame,
  Framer,
  parseFrame,
  readCapture,
} from "../../src/local/index.js";
import { type Clock, every } from "../../src/time/index.js";

/*
 * A dongle made of a real capture and nothing else (issue 34): it answers a request with the
 * captured answer for the same device, function, base and count, or with one built from the
 * captured values of every register asked for, or not at all. It holds no register value of its
 * own. Its playhead moves through the capture as the test says, so a run sees the capture's
 * values change as they did; heartbeats come at the capture's own interval (scaled with it).
 */

type Answer = Extract<Frame, { kind: "response" | "error" }>;

interface Timed<T> {
  /** Ms from the capture's first frame. */
  readonly t: number;
  readonly value: T;
}

export interface ReplayOptions {
  /** The capture's text (either line format). */
  readonly text: string;
  /** The capture's span when its lines carry no times (the HA integration's format), ms. */
  readonly spanMs?: number;
  /** Where in the capture the dongle is now, ms from its first frame. */
  readonly playhead: () => number;
  /** The clock its heartbeats run on (the daemon's), and how many capture ms pass per clock ms. */
  readonly clock: Clock;
  readonly captureMsPerClockMs: number;
}

export interface ReplayRequest {
  readonly address: number;
  readonly function: number;
  readonly base: number;
  readonly count: number;
  readonly answered: "captured" | "built" | "silent";
}

const keyOf = (address: number, fn: number, base: number, count: number): string => `${address}/${fn}/${base}/${count}`;
const spaceOf = (address: number, fn: number): string => `${address}/${fn}`;

/** The last item at or before `t`, else the first after it. */
function at<T>(items: readonly Timed<T>[], t: number): T | undefined {
  let chosen: Timed<T> | undefined;
  for (const item of items) {
    if (item.t <= t) chosen = item;
    else break;
  }
  return (chosen ?? items[0])?.value;
}

/** The capture cut into what a dongle needs to answer from it. */
export interface CaptureIndex {
  readonly dongleSerial: string;
  readonly spanMs: number;
  /** Captured answers by device/function/base/count, in capture order. */
  readonly answers: ReadonlyMap<string, readonly Timed<Answer>[]>;
  /** Captured register values by device/function, then register. */
  readonly registers: ReadonlyMap<string, ReadonlyMap<number, readonly Timed<number>[]>>;
  /** The serial each device's answers carried, by device/function. */
  readonly deviceSerials: ReadonlyMap<string, string>;
  /** The dongle's heartbeat interval in capture ms, when the capture shows two heartbeats or more. */
  readonly heartbeatMs: number | undefined;
}

export function indexCapture(text: string, spanMs = 60_000): CaptureIndex {
  const capture = readCapture(text);
  const times = capture.frames.map((frame) => (frame.at === undefined ? Number.NaN : Date.parse(frame.at)));
  const timed = times.every((time) => Number.isFinite(time));
  const first = timed ? (times[0] ?? 0) : 0;
  const count = capture.frames.length;
  const offset = (index: number): number =>
    timed ? (times[index] ?? first) - first : count <= 1 ? 0 : (index / (count - 1)) * spanMs;
  const answers = new Map<string, Timed<Answer>[]>();
  const registers = new Map<string, Map<number, Timed<number>[]>>();
  const deviceSerials = new Map<string, string>();
  const beats: number[] = [];
  let dongleSerial = "";
  capture.frames.forEach(({ direction, frame }, index) => {
    if (direction !== "rx") return;
    const t = offset(index);
    if (frame.kind === "heartbeat") {
      beats.push(t);
      dongleSerial ||= frame.dongleSerial;
      return;
    }
    if (frame.kind !== "response" && frame.kind !== "error") return;
    if (frame.function !== 0x03 && frame.function !== 0x04) return;
    dongleSerial ||= frame.dongleSerial;
    const key = keyOf(frame.address, frame.function, frame.base, frame.count);
    answers.set(key, [...(answers.get(key) ?? []), { t, value: frame }]);
    if (frame.kind === "error") return;
    const space = spaceOf(frame.address, frame.function);
    deviceSerials.set(space, frame.deviceSerial);
    let values = registers.get(space);
    if (!values) {
      values = new Map();
      registers.set(space, values);
    }
    frame.values.slice(0, frame.count).forEach((value, i) => {
      const register = frame.base + i;
      values.set(register, [...(values.get(register) ?? []), { t, value }]);
    });
  });
  const gaps = beats.slice(1).map((t, i) => t - (beats[i] ?? t));
  gaps.sort((a, b) => a - b);
  const heartbeatMs = timed && gaps.length > 0 ? gaps[Math.floor(gaps.length / 2)] : undefined;
  return {
    dongleSerial: dongleSerial || "WF0000X000",
    spanMs: timed ? offset(count - 1) : spanMs,
    answers,
    registers,
    deviceSerials,
    heartbeatMs: heartbeatMs && heartbeatMs > 0 ? heartbeatMs : undefined,
  };
}

/**
 * The answer a capture gives to one read at a point of its timeline: the captured frame for the
 * same block, or one built when every register asked for was captured at that device, or none.
 */
export function replayAnswer(
  index: CaptureIndex,
  request: { address: number; function: number; base: number; count: number },
  t: number,
): { bytes: Uint8Array; how: "captured" | "built" } | undefined {
  const { address, base, count } = request;
  const fn = request.function;
  const captured = at(index.answers.get(keyOf(address, fn, base, count)) ?? [], t);
  if (captured?.kind === "error")
    return {
      bytes: buildErrorResponse({ ...captured, dongleSerial: index.dongleSerial }),
      how: "captured",
    };
  if (captured)
    return {
      bytes: buildResponse({
        dongleSerial: index.dongleSerial,
        address,
        function: fn,
        deviceSerial: captured.deviceSerial,
        base,
        values: captured.values.slice(0, count),
      }),
      how: "captured",
    };
  const space = spaceOf(address, fn);
  const known = index.registers.get(space);
  const serial = index.deviceSerials.get(space);
  if (!known || serial === undefined) return undefined;
  const values: number[] = [];
  for (let register = base; register < base + count; register++) {
    const value = at(known.get(register) ?? [], t);
    if (value === undefined) return undefined;
    values.push(value);
  }
  return {
    bytes: buildResponse({
      dongleSerial: index.dongleSerial,
      address,
      function: fn,
      deviceSerial: serial,
      base,
      values,
    }),
    how: "built",
  };
}

/** A TCP dongle on 127.0.0.1 that answers from a capture; every answer goes to every client, as real ones do. */
export class ReplayDongle {
  readonly index: CaptureIndex;
  readonly requests: ReplayRequest[] = [];
  /** Writes received (never answered: a capture holds no echo for them). */
  readonly writes: { register: number; value: number }[] = [];
  private readonly server: Server;
  private readonly clients = new Set<Socket>();
  private readonly silenced = new Set<string>();
  private stopBeats: (() => void) | undefined;
  private beat = 0;

  constructor(private readonly options: ReplayOptions) {
    this.index = indexCapture(options.text, options.spanMs);
    this.server = createServer((socket) => this.serve(socket));
  }

  /** Listens on `port` (a free one by default) on 127.0.0.1; returns the port. */
  async start(port = 0): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(port, "127.0.0.1", resolve));
    const { heartbeatMs } = this.index;
    if (heartbeatMs !== undefined)
      this.stopBeats = every(this.options.clock, heartbeatMs / this.options.captureMsPerClockMs, () => {
        this.beat = (this.beat + 1) & 0xff;
        this.send(buildHeartbeat(this.index.dongleSerial, this.beat));
      });
    return this.port;
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === "object" && address ? address.port : 0;
  }

  /** From now on the block (device, function, base, count) gets no answer, until `answerAgain`. */
  silence(address: number, fn: number, base: number, count: number): void {
    this.silenced.add(keyOf(address, fn, base, count));
  }

  answerAgain(): void {
    this.silenced.clear();
  }

  /** How often a block was asked for, since the request at `from`. */
  asked(address: number, fn: number, base: number, from = 0): number {
    return this.requests.slice(from).filter((r) => r.address === address && r.function === fn && r.base === base)
      .length;
  }

  async stop(): Promise<void> {
    this.stopBeats?.();
    for (const client of this.clients) client.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: Socket): void {
    this.clients.add(socket);
    const framer = new Framer();
    socket.on("data", (chunk: Buffer) => {
      for (const event of framer.push(chunk)) {
        if (event.type !== "frame" || !event.crcOk) continue;
        const frame = parseFrame(event.bytes);
        if (frame.kind === "request") this.answer(frame);
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => this.clients.delete(socket));
  }

  private answer(request: Extract<Frame, { kind: "request" }>): void {
    if (request.function === 0x06) {
      this.writes.push({ register: request.base, value: request.count });
      return;
    }
    const silent = this.silenced.has(keyOf(request.address, request.function, request.base, request.count));
    const found = silent ? undefined : replayAnswer(this.index, request, this.options.playhead());
    this.requests.push({
      address: request.address,
      function: request.function,
      base: request.base,
      count: request.count,
      answered: found?.how ?? "silent",
    });
    if (found) setImmediate(() => this.send(found.bytes));
  }

  private send(bytes: Uint8Array): void {
    for (const client of this.clients) if (!client.destroyed) client.write(bytes);
  }
}
