import { createConnection, createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { buildHeartbeat, buildResponse, buildWriteResponse, type Frame, parseFrame } from "../../src/local/frame.js";
import { Framer } from "../../src/local/framer.js";
import { DongleSession, type SessionState } from "../../src/local/session.js";
import { later } from "../../src/time/index.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";
import { untilOnClock } from "../helpers/until-on-clock.js";
import { driven } from "../simulator/local/read-dongle.js";

/*
 * The dongle as it really is (issue 34): it closes mid-answer, goes silent, fans other clients'
 * answers into ours, reboots. The fake below does each on cue, on 127.0.0.1, and counts the
 * requests it has not yet answered, dropped or lost with their connection: never more than one.
 */

const DONGLE = "WF0000G000";
const INVERTER = "SA0000G000";

type Request = Extract<Frame, { kind: "request" }>;

/** How the fake answers one request. */
type Reply =
  | {
      readonly kind: "answer";
      /** On the virtual clock. */
      readonly afterMs?: number;
      readonly values?: readonly number[];
      /** Other clients' frames sent just before ours, with ours cut at `splitAt` bytes into a second chunk. */
      readonly before?: readonly Uint8Array[];
      readonly splitAt?: number;
    }
  | { readonly kind: "drop" }
  | { readonly kind: "half then close" };

function answerTo(request: Request, values?: readonly number[]): Uint8Array {
  const common = { dongleSerial: DONGLE, address: request.address, deviceSerial: INVERTER };
  if (request.function === 6) return buildWriteResponse({ ...common, register: request.base, value: request.count });
  const answer = values ?? Array.from({ length: request.count }, (_, i) => request.base + i);
  return buildResponse({ ...common, function: request.function, base: request.base, values: [...answer] });
}

const otherAnswer = (address: number, fn: number, base: number, count: number): Uint8Array =>
  answerTo({ kind: "request", dongleSerial: DONGLE, address, function: fn, base, count });

class FaultDongle {
  private server: Server | undefined;
  readonly sockets: Socket[] = [];
  readonly requests: { request: Request; at: number }[] = [];
  /** Requests received and not yet answered, dropped, or lost with their connection. */
  private readonly outstanding = new Set<object>();
  maxOutstanding = 0;
  plan: (request: Request, index: number) => Reply = () => ({ kind: "answer" });
  port = 0;

  constructor(private readonly clock: VirtualClock) {}

  async up(port = this.port): Promise<number> {
    const server = createServer((socket) => this.serve(socket));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    this.port = address.port;
    return this.port;
  }

  /** Closes every connection and stops listening: connections are refused until `up` again. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  heartbeat(): void {
    this.sockets.at(-1)?.write(buildHeartbeat(DONGLE));
  }

  private serve(socket: Socket): void {
    this.sockets.push(socket);
    socket.setNoDelay(true);
    const framer = new Framer();
    const mine = new Set<object>();
    socket.on("data", (chunk) => {
      for (const event of framer.push(chunk)) {
        if (event.type !== "frame") continue;
        const frame = parseFrame(event.bytes);
        if (frame.kind !== "request") continue;
        const token = {};
        mine.add(token);
        this.outstanding.add(token);
        this.maxOutstanding = Math.max(this.maxOutstanding, this.outstanding.size);
        this.requests.push({ request: frame, at: this.clock.now() });
        this.reply(socket, frame, () => {
          mine.delete(token);
          this.outstanding.delete(token);
        });
      }
    });
    socket.on("close", () => {
      for (const token of mine) this.outstanding.delete(token);
    });
    socket.on("error", () => {});
  }

  private reply(socket: Socket, request: Request, settle: () => void): void {
    const reply = this.plan(request, this.requests.length - 1);
    if (reply.kind === "drop") {
      settle();
      return;
    }
    const bytes = answerTo(request, reply.kind === "answer" ? reply.values : undefined);
    if (reply.kind === "half then close") {
      settle();
      socket.end(bytes.subarray(0, Math.floor(bytes.length / 2)));
      return;
    }
    const send = (): void => {
      if (socket.destroyed) return;
      const cut = reply.splitAt ?? bytes.length;
      socket.write(Buffer.concat([...(reply.before ?? []), bytes.subarray(0, cut)]));
      if (cut >= bytes.length) {
        settle();
        return;
      }
      later(this.clock, 100, () => {
        if (!socket.destroyed) socket.write(bytes.subarray(cut));
        settle();
      });
    };
    if (reply.afterMs) later(this.clock, reply.afterMs, send);
    else send();
  }
}

let dongle: FaultDongle | undefined;
let session: DongleSession | undefined;
afterEach(async () => {
  session?.close();
  await dongle?.down();
  dongle = undefined;
  session = undefined;
});

const until = (clock: VirtualClock, check: () => void, stepMs = 50): Promise<void> =>
  untilOnClock(clock, check, stepMs, 8_000);

/** Settles to its value, or to the error's message. */
const outcome = <T>(promise: Promise<T>): Promise<T | string> => promise.catch((error: Error) => error.message);

async function started(options: Partial<ConstructorParameters<typeof DongleSession>[0]> = {}) {
  const clock = new VirtualClock(0);
  dongle = new FaultDongle(clock);
  const port = await dongle.up(0);
  /** Each state with when it came and the random number drawn last before it (a reconnect's jitter). */
  const states: { state: SessionState; at: number; drawn: number | undefined }[] = [];
  const draws: number[] = [];
  const frames: Frame[] = [];
  const attempts: number[] = [];
  const random = options.random ?? (() => 0.5);
  session = new DongleSession({
    host: "127.0.0.1",
    port,
    clock,
    ...options,
    random: () => {
      const value = random();
      draws.push(value);
      return value;
    },
    onState: (state) => states.push({ state, at: clock.now(), drawn: draws.at(-1) }),
    onFrame: (frame) => frames.push(frame),
    connect: (port, host) => {
      attempts.push(clock.now());
      return createConnection({ port, host });
    },
  });
  session.start();
  await until(clock, () => expect(session?.state).toBe("connected"));
  return { clock, dongle, session, states, frames, attempts };
}

const read = (base: number, count: number, address = 0x11) => ({ address, function: 4 as const, base, count });

describe("a session with a dongle as it really is (issue 34)", () => {
  it("asks again after the dongle closed halfway through an answer, and takes nothing of the half frame", async () => {
    const { clock, dongle, session, frames } = await started();
    const fresh = Array.from({ length: 10 }, (_, i) => 500 + i);
    dongle.plan = (_, index) => (index === 0 ? { kind: "half then close" } : { kind: "answer", values: fresh });
    const values = outcome(session.read(read(0, 10)));
    await until(clock, () => expect(dongle.requests).toHaveLength(2));
    expect(await values).toEqual(fresh);
    expect(dongle.sockets).toHaveLength(2);
    expect(dongle.requests.map(({ request }) => [request.base, request.count])).toEqual([
      [0, 10],
      [0, 10],
    ]);
    expect(frames.filter((frame) => frame.kind !== "heartbeat")).toHaveLength(1);
    expect(session.stats.crcFailures).toBe(0);
    expect(dongle.maxOutstanding).toBe(1);
  });

  it("times out reads while the dongle is silent for a minute, and reads again after on the same connection", async () => {
    const { clock, dongle, session, states } = await started({ requestTimeoutMs: 5_000 });
    let silent = true;
    dongle.plan = () => (silent ? { kind: "drop" } : { kind: "answer" });
    const silentUntil = clock.now() + 60_000;
    const failures: (number[] | string)[] = [];
    while (clock.now() < silentUntil - 6_000) {
      const asked = clock.now();
      failures.push(await driven(clock, outcome(session.read(read(0, 10)))));
      expect(clock.now() - asked).toBeGreaterThanOrEqual(5_000);
    }
    expect(failures.length).toBeGreaterThanOrEqual(8);
    for (const failure of failures)
      expect(failure).toMatch(/no answer from device 0x11 for registers 0-9 within 5000 ms/);
    clock.advanceTo(silentUntil);
    silent = false;
    dongle.heartbeat();
    await until(clock, () => expect(session.stats.heartbeatsEchoed).toBe(1));
    expect(await driven(clock, session.read(read(60, 5)))).toEqual([60, 61, 62, 63, 64]);
    expect(dongle.sockets).toHaveLength(1);
    expect(states.map(({ state }) => state)).toEqual(["connecting", "connected"]);
    expect(session.stats.timeouts).toBe(failures.length);
    expect(dongle.maxOutstanding).toBe(1);
  });

  it("takes its own answer from among other clients' answers, split across TCP chunks, and passes theirs on", async () => {
    const { clock, dongle, session, frames } = await started();
    dongle.plan = () => ({
      kind: "answer",
      before: [otherAnswer(0x11, 4, 60, 60), otherAnswer(0x32, 4, 0, 10), otherAnswer(0x11, 4, 0, 9)],
      splitAt: 20,
      values: Array.from({ length: 10 }, (_, i) => 7_000 + i),
    });
    const values = outcome(session.read(read(0, 10)));
    await until(clock, () => expect(session.stats.unsolicited).toBe(3));
    expect(await driven(clock, values)).toEqual(Array.from({ length: 10 }, (_, i) => 7_000 + i));
    const answers = frames.flatMap((frame) =>
      frame.kind === "response" ? [[frame.address, frame.base, frame.count, frame.values[0]]] : [],
    );
    expect(answers).toEqual([
      [0x11, 60, 60, 60],
      [0x32, 0, 10, 0],
      [0x11, 0, 9, 0],
      [0x11, 0, 10, 7_000],
    ]);
    expect(dongle.requests).toHaveLength(1);
  });

  it("comes back after a reboot: never gives up, reconnecting with growing, capped, jittered delays", async () => {
    const sequence = [0.1, 0.9, 0.4, 0.7, 0.25, 0.95, 0.6];
    let drawn = 0;
    const { clock, dongle, session, states, attempts } = await started({
      random: () => sequence[drawn++ % sequence.length] ?? 0,
      backoffMs: 1_000,
      maxBackoffMs: 8_000,
    });
    expect(await driven(clock, session.read(read(0, 3)))).toEqual([0, 1, 2]);
    await dongle.down(); // heartbeats stop, the connection closes, then connections are refused
    const refusals = 9; // more than the 8 attempts after which the session used to give up
    const waiting = () => states.filter(({ state }) => state === "waiting to reconnect");
    await until(clock, () => expect(waiting()).toHaveLength(1 + refusals), 200);
    expect(attempts).toHaveLength(1 + refusals);
    await expect(session.read(read(3, 3))).rejects.toThrow(
      new RegExp(
        `^not connected to 127\\.0\\.0\\.1:${dongle.port} \\(connect ECONNREFUSED [^)]*\\); the next attempt is in \\d+\\.\\d s`,
      ),
    );
    await dongle.up();
    await until(clock, () => expect(session.state).toBe("connected"), 200);
    expect(await driven(clock, session.read(read(3, 3)))).toEqual([3, 4, 5]);

    expect(new Set(states.map(({ state }) => state))).toEqual(
      new Set(["connecting", "connected", "waiting to reconnect"]),
    );
    const waits = waiting();
    const delays = waits.map(({ at }, i) => (attempts[i + 1] ?? Number.NaN) - at);
    expect(delays).toHaveLength(refusals + 1);
    delays.forEach((delay, i) => {
      const backoff = Math.min(8_000, 1_000 * 2 ** i);
      expect(delay).toBe(Math.round(backoff * (1 + 0.2 * (waits[i]?.drawn ?? Number.NaN))));
      expect(delay).toBeGreaterThanOrEqual(backoff);
      expect(delay).toBeLessThan(backoff * 1.2);
      if (i > 0 && i <= 3) expect(delay).toBeGreaterThan(delays[i - 1] ?? Number.POSITIVE_INFINITY);
    });
    expect(session.stats.reconnects).toBe(refusals + 1);
  });

  it("never has two requests outstanding at the dongle, through slow answers, silences and dropped connections", async () => {
    const { clock, dongle, session } = await started({ requestTimeoutMs: 5_000 });
    let closedOnce = false;
    dongle.plan = (_, index) => {
      if (index === 3 && !closedOnce) {
        closedOnce = true;
        return { kind: "half then close" };
      }
      if (index % 4 === 1) return { kind: "drop" };
      return { kind: "answer", afterMs: (index % 3) * 1_500 };
    };
    // Asked at intervals, so most are asked while another is in flight or waits for a reconnect.
    const reads = Array.from(
      { length: 24 },
      (_, i) =>
        new Promise<number[] | string>((resolve) =>
          later(clock, i * 1_300, () => resolve(outcome(session.read(read(i * 10, 10))))),
        ),
    );
    const results = await driven(clock, Promise.all(reads), 100);
    expect(results.filter((result) => Array.isArray(result)).length).toBeGreaterThan(0);
    expect(results.filter((result) => typeof result === "string").length).toBeGreaterThan(0);
    expect(dongle.sockets.length).toBeGreaterThanOrEqual(2);
    expect(dongle.requests.length).toBeGreaterThanOrEqual(12);
    expect(dongle.maxOutstanding).toBe(1);
  });
});

describe("one write is one frame (issue 35 item 4)", () => {
  it("sends a write echoed 6 s late to a 5 s timeout once, and asks nothing else until the echo came", async () => {
    const { clock, dongle, session } = await started({ requestTimeoutMs: 5_000 });
    dongle.plan = (request) => ({ kind: "answer", afterMs: request.function === 6 ? 6_000 : 0 });
    const write = outcome(session.write({ address: 0x11, register: 110, value: 30 }));
    await until(clock, () => expect(dongle.requests).toHaveLength(1));
    const reads = [outcome(session.read(read(0, 5))), outcome(session.read(read(5, 5)))];
    expect(await driven(clock, write)).toMatch(/within 5000 ms; it may or may not have been applied/);
    expect(await driven(clock, Promise.all(reads))).toEqual([
      [0, 1, 2, 3, 4],
      [5, 6, 7, 8, 9],
    ]);
    clock.advance(60_000);
    const writes = dongle.requests.filter(({ request }) => request.function === 6);
    expect(writes).toHaveLength(1);
    expect((dongle.requests[1]?.at ?? 0) - (writes[0]?.at ?? Number.NaN)).toBeGreaterThanOrEqual(6_000);
    expect(session.stats.lateEchoes).toBe(1);
    expect(dongle.maxOutstanding).toBe(1);
  });
});
