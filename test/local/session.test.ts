import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  buildErrorResponse,
  buildHeartbeat,
  buildResponse,
  buildWriteResponse,
  type Frame,
  parseFrame,
} from "../../src/local/frame.js";
import { Framer } from "../../src/local/framer.js";
import { DongleSession, type SessionError, type SessionState } from "../../src/local/session.js";
import { later } from "../../src/time/index.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";
import { untilOnClock } from "../helpers/until-on-clock.js";

const DONGLE = "WF0000G000";
const INVERTER = "SA0000G000";

/** A tiny dongle on 127.0.0.1: answers reads with register = its number, records what came in and when. */
class TestDongle {
  readonly server: Server;
  readonly sockets: Socket[] = [];
  readonly received: { frame: Frame; at: number }[] = [];
  answer = true;
  /** How a write is answered: its echo, an echo of another value, an error response, or nothing. */
  writes: "echo" | "other value" | "error" | "silent" = "echo";
  /** How long (on the clock) a write's answer takes. */
  echoAfterMs = 0;
  port = 0;
  constructor(private readonly clock: VirtualClock) {
    this.server = createServer((socket) => {
      this.sockets.push(socket);
      const framer = new Framer();
      socket.on("data", (chunk) => {
        for (const event of framer.push(chunk)) {
          if (event.type !== "frame") continue;
          const frame = parseFrame(event.bytes);
          this.received.push({ frame, at: this.clock.now() });
          if (frame.kind === "request" && frame.function === 6) {
            const answer = this.writeAnswer(frame) ?? new Uint8Array();
            if (this.echoAfterMs === 0) socket.write(answer);
            else later(this.clock, this.echoAfterMs, () => socket.write(answer));
          } else if (frame.kind === "request" && this.answer)
            socket.write(this.response(frame.address, frame.function, frame.base, frame.count));
        }
      });
      socket.on("error", () => {});
    });
  }
  response(address: number, fn: number, base: number, count: number): Uint8Array {
    const values = Array.from({ length: count }, (_, i) => base + i);
    return buildResponse({ dongleSerial: DONGLE, address, function: fn, deviceSerial: INVERTER, base, values });
  }
  writeAnswer(frame: Extract<Frame, { kind: "request" }>): Uint8Array | undefined {
    const { address, base: register, count: value } = frame;
    const common = { dongleSerial: DONGLE, address, deviceSerial: INVERTER };
    switch (this.writes) {
      case "echo":
        return buildWriteResponse({ ...common, register, value });
      case "other value":
        return buildWriteResponse({ ...common, register, value: value + 1 });
      case "error":
        return buildErrorResponse({ ...common, function: 6, base: register, count: value });
      case "silent":
        return undefined;
    }
  }
  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    this.port = address.port;
    return address.port;
  }
  requests(): Extract<Frame, { kind: "request" }>[] {
    return this.received.flatMap(({ frame }) => (frame.kind === "request" ? [frame] : []));
  }
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let dongle: TestDongle | undefined;
let session: DongleSession | undefined;
afterEach(async () => {
  session?.close();
  await dongle?.close();
  dongle = undefined;
  session = undefined;
});

const until = (clock: VirtualClock, check: () => void, stepMs = 50): Promise<void> =>
  untilOnClock(clock, check, stepMs, 5_000);

/** The error a request fails with; throws when it does not fail. */
const failure = (request: Promise<unknown>): Promise<SessionError> =>
  request.then(
    () => {
      throw new Error("expected the request to fail");
    },
    (error: SessionError) => error,
  );

async function started(options: Partial<ConstructorParameters<typeof DongleSession>[0]> = {}) {
  const clock = new VirtualClock(0);
  dongle = new TestDongle(clock);
  const port = await dongle.listen();
  const states: SessionState[] = [];
  const frames: Frame[] = [];
  session = new DongleSession({
    host: "127.0.0.1",
    port,
    clock,
    random: () => 0.5,
    onState: (state) => states.push(state),
    onFrame: (frame) => frames.push(frame),
    ...options,
  });
  session.start();
  await until(clock, () => expect(session?.state).toBe("connected"));
  return { clock, dongle, session, states, frames };
}

describe("a session with a dongle", () => {
  it("reads in requests of at most 60 registers, one at a time, at least 250 ms apart", async () => {
    const { clock, dongle, session } = await started();
    let values: number[] | undefined;
    void session.read({ address: 0x11, function: 4, base: 0, count: 150 }).then((v) => {
      values = v;
    });
    await until(clock, () => expect(values).toBeDefined());
    expect(values).toEqual(Array.from({ length: 150 }, (_, i) => i));
    const requests = dongle.requests();
    expect(requests.map((r) => [r.base, r.count])).toEqual([
      [0, 60],
      [60, 60],
      [120, 30],
    ]);
    const times = dongle.received.map((r) => r.at);
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(250);
  });

  it("echoes the dongle's heartbeat within a second, and passes answers nobody asked for on as normal", async () => {
    const { clock, dongle, session, frames } = await started();
    const socket = dongle.sockets[0];
    socket?.write(buildHeartbeat(DONGLE));
    socket?.write(dongle.response(0x32, 4, 60, 60)); // another client's answer
    const sentAt = clock.now();
    await until(clock, () => expect(dongle.received.some((r) => r.frame.kind === "heartbeat")).toBe(true), 10);
    const echo = dongle.received.find((r) => r.frame.kind === "heartbeat");
    expect((echo?.at ?? Infinity) - sentAt).toBeLessThan(1_000);
    expect(session.stats.heartbeatsEchoed).toBe(1);
    await until(clock, () => expect(session.stats.unsolicited).toBe(1));
    expect(frames.some((f) => f.kind === "response" && f.address === 0x32)).toBe(true);
  });

  it("matches by device, function, base and count: a look-alike answer does not settle the read", async () => {
    const { clock, dongle, session } = await started();
    dongle.answer = false;
    let values: number[] | undefined;
    void session.read({ address: 0x11, function: 3, base: 0, count: 60 }).then((v) => {
      values = v;
    });
    await until(clock, () => expect(dongle.requests()).toHaveLength(1));
    const socket = dongle.sockets[0];
    socket?.write(dongle.response(0x11, 4, 0, 60)); // input, not holding
    socket?.write(dongle.response(0x11, 3, 0, 59)); // another count
    await until(clock, () => expect(session.stats.unsolicited).toBe(2));
    expect(values).toBeUndefined();
    socket?.write(dongle.response(0x11, 3, 0, 60));
    await until(clock, () => expect(values).toHaveLength(60));
  });

  it("says an answer came damaged (bad CRC, garbage) rather than that none came", async () => {
    const { clock, dongle, session } = await started({ requestTimeoutMs: 2_000 });
    dongle.answer = false;
    const read = failure(session.read({ address: 0x11, function: 4, base: 0, count: 10 }));
    await until(clock, () => expect(dongle.requests()).toHaveLength(1));
    const good = dongle.response(0x11, 4, 0, 10);
    const badCrc = good.slice();
    badCrc[badCrc.length - 1] = (badCrc.at(-1) ?? 0) ^ 0xff;
    dongle.sockets[0]?.write(badCrc);
    dongle.sockets[0]?.write(Buffer.from("not a frame at all"));
    await until(clock, () => expect(session.stats.crcFailures + session.stats.garbage).toBe(2));
    clock.advance(2_000);
    const error = await read;
    expect(error.kind).toBe("timeout");
    expect(error.message).toBe(
      "no whole answer (2 damaged frame(s): bad CRC or garbage) from device 0x11 for registers 0-9 within 2000 ms",
    );
  });

  it("times out a read nobody answers, on the clock, and goes on with the next", async () => {
    const { clock, dongle, session } = await started({ requestTimeoutMs: 2_000 });
    dongle.answer = false;
    const first = session.read({ address: 0x11, function: 4, base: 0, count: 10 });
    const failed = first.catch((error: Error) => error.message);
    await until(clock, () => expect(dongle.requests()).toHaveLength(1));
    clock.advance(2_000);
    expect(await failed).toMatch(/no answer from device 0x11 for registers 0-9 within 2000 ms/);
    dongle.answer = true;
    await expect(
      (async () => {
        const next = session.read({ address: 0x11, function: 4, base: 10, count: 2 });
        await until(clock, () => expect(dongle.requests()).toHaveLength(2));
        return next;
      })(),
    ).resolves.toEqual([10, 11]);
    expect(session.stats.timeouts).toBe(1);
  });

  it("reconnects with backoff when the dongle drops the connection, and asks again", async () => {
    const { clock, dongle, session, states } = await started({ backoffMs: 1_000 });
    dongle.answer = false;
    const read = session.read({ address: 0x11, function: 4, base: 0, count: 5 });
    await until(clock, () => expect(dongle.requests()).toHaveLength(1));
    dongle.answer = true;
    dongle.sockets[0]?.destroy();
    await until(clock, () => expect(session.state).toBe("waiting to reconnect"), 1);
    await until(clock, () => expect(dongle.sockets).toHaveLength(2), 100);
    await until(clock, () => expect(dongle.requests()).toHaveLength(2));
    await expect(read).resolves.toEqual([0, 1, 2, 3, 4]);
    expect(states).toEqual(["connecting", "connected", "waiting to reconnect", "connecting", "connected"]);
    expect(session.stats.reconnects).toBe(1);
  });

  it("answers a read asked right after start(), before the connection is up", async () => {
    const clock = new VirtualClock(0);
    dongle = new TestDongle(clock);
    const port = await dongle.listen();
    session = new DongleSession({ host: "127.0.0.1", port, clock, random: () => 0.5 });
    session.start();
    expect(session.state).toBe("connecting");
    let values: number[] | undefined;
    void session.read({ address: 0x11, function: 4, base: 0, count: 3 }).then((v) => {
      values = v;
    });
    await until(clock, () => expect(values).toEqual([0, 1, 2]));
  });

  it("fails a read asked during a connection attempt when that attempt is refused, and tries again later", async () => {
    const clock = new VirtualClock(0);
    dongle = new TestDongle(clock);
    const port = await dongle.listen();
    await dongle.close(); // nothing listens on the port
    const states: SessionState[] = [];
    session = new DongleSession({ host: "127.0.0.1", port, clock, random: () => 0, onState: (s) => states.push(s) });
    session.start();
    const failed = failure(session.read({ address: 0x11, function: 4, base: 0, count: 3 }));
    await until(clock, () => expect(states).toContain("waiting to reconnect"), 1);
    const error = await failed;
    expect(error.kind).toBe("connection");
    expect(error.message).toMatch(
      /^could not connect to 127\.0\.0\.1:\d+ \(connect ECONNREFUSED 127\.0\.0\.1:\d+\): device 0x11 was not asked for registers 0-2$/,
    );
    await until(clock, () => expect(session?.stats.reconnects).toBe(1));
  });

  it("fails reads and writes at once while waiting to reconnect, naming host:port and the next attempt", async () => {
    const { clock, dongle, session } = await started({ backoffMs: 4_000 });
    dongle.sockets[0]?.destroy();
    await until(clock, () => expect(session.state).toBe("waiting to reconnect"), 1);
    const waitingSince = clock.now();
    clock.advance(1_000);
    const left = 4_000 * 1.1 - (clock.now() - waitingSince);
    await expect(session.read({ address: 0x11, function: 4, base: 0, count: 60 })).rejects.toMatchObject({
      kind: "connection",
      message: `not connected to 127.0.0.1:${dongle.port} (the dongle closed it); the next attempt is in ${(left / 1_000).toFixed(1)} s: device 0x11 was not asked for registers 0-59`,
    });
    await expect(session.write({ address: 0x11, register: 110, value: 20 })).rejects.toMatchObject({
      kind: "connection",
      message: expect.stringMatching(/^not connected to .*: device 0x11 was not asked for the write of 20 to/),
    });
    await until(clock, () => expect(session.state).toBe("connected"), 100);
    await expect(
      (async () => {
        const read = session.read({ address: 0x11, function: 4, base: 7, count: 2 });
        await until(clock, () => expect(dongle.requests()).toHaveLength(1));
        return read;
      })(),
    ).resolves.toEqual([7, 8]);
    expect(dongle.requests()).toHaveLength(1);
  });

  it("fails what was queued at once when the connection drops; only the read in flight is asked again", async () => {
    const { clock, dongle, session } = await started({ backoffMs: 1_000 });
    dongle.answer = false;
    const inFlight = session.read({ address: 0x11, function: 4, base: 0, count: 5 });
    const queued = failure(session.read({ address: 0x11, function: 4, base: 5, count: 5 }));
    const write = failure(session.write({ address: 0x11, register: 110, value: 20 }));
    await until(clock, () => expect(dongle.requests()).toHaveLength(1));
    dongle.answer = true;
    dongle.sockets[0]?.destroy();
    await until(clock, () => expect(session.state).toBe("waiting to reconnect"), 1);
    const stillWaiting = clock.now();
    expect((await queued).message).toMatch(
      /^the connection to 127\.0\.0\.1:\d+ dropped \(the dongle closed it\): device 0x11 was not asked for registers 5-9$/,
    );
    expect((await write).message).toMatch(/dropped \(the dongle closed it\): device 0x11 was not asked for the write/);
    expect(clock.now()).toBe(stillWaiting);
    await until(clock, () => expect(dongle.requests()).toHaveLength(2), 100);
    await expect(inFlight).resolves.toEqual([0, 1, 2, 3, 4]);
    expect(dongle.requests().map((request) => [request.function, request.base])).toEqual([
      [4, 0],
      [4, 0],
    ]);
  });

  it("refuses a read that cannot be asked, before sending anything", async () => {
    const { session, dongle } = await started();
    await expect(session.read({ address: 0x11, function: 4, base: 65530, count: 10 })).rejects.toThrow(
      /bad read request/,
    );
    expect(dongle.requests()).toHaveLength(0);
  });
});

describe("a single-register write (0x06)", () => {
  const writes = (dongle: TestDongle) =>
    dongle
      .requests()
      .filter((request) => request.function === 6)
      .map((request) => [request.base, request.count]);

  it("is queued with the reads, one at a time and paced like them, and settles on its echo", async () => {
    const { clock, dongle, session } = await started();
    let wrote = false;
    const read = session.read({ address: 0x11, function: 3, base: 0, count: 60 });
    void session.write({ address: 0x11, register: 110, value: 20 }).then(() => {
      wrote = true;
    });
    await until(clock, () => expect(wrote).toBe(true));
    await expect(read).resolves.toHaveLength(60);
    expect(dongle.requests().map((request) => request.function)).toEqual([3, 6]);
    expect(writes(dongle)).toEqual([[110, 20]]);
    const [first, second] = dongle.received.map((entry) => entry.at);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(250);
  });

  it("fails with both values named when the echo carries another value", async () => {
    const { clock, dongle, session } = await started();
    dongle.writes = "other value";
    let message: string | undefined;
    let kind: string | undefined;
    void session.write({ address: 0x11, register: 116, value: 80 }).catch((error: SessionError) => {
      message = error.message;
      kind = error.kind;
    });
    await until(clock, () => expect(message).toBeDefined());
    expect(message).toMatch(
      /device 0x11 echoed 81 to holding register 116 for the write of 80 to holding register 116/,
    );
    expect(writes(dongle)).toEqual([[116, 80]]);
    expect(kind).toBe("echo");
  });

  it("surfaces an error response as a clear error, and does not send it again", async () => {
    const { clock, dongle, session } = await started();
    dongle.writes = "error";
    let message: string | undefined;
    let kind: string | undefined;
    void session.write({ address: 0x11, register: 162, value: 1 }).catch((error: SessionError) => {
      message = error.message;
      kind = error.kind;
    });
    await until(clock, () => expect(message).toBeDefined());
    expect(message).toBe("device 0x11 refused the write of 1 to holding register 162 (error response)");
    expect(kind).toBe("refused");
    clock.advance(20_000);
    expect(writes(dongle)).toEqual([[162, 1]]);
  });

  it("sends a write nobody echoed once only, then fails saying it may have applied", async () => {
    const { clock, dongle, session } = await started({ requestTimeoutMs: 2_000 });
    dongle.writes = "silent";
    let message: string | undefined;
    let kind: string | undefined;
    void session.write({ address: 0x11, register: 110, value: 30 }).catch((error: SessionError) => {
      message = error.message;
      kind = error.kind;
    });
    await until(clock, () => expect(message).toBeDefined(), 100);
    expect(message).toBe(
      "no answer from device 0x11 for the write of 30 to holding register 110 within 2000 ms; it may or may not have been applied, and it is not sent again",
    );
    expect(kind).toBe("timeout");
    clock.advance(30_000);
    expect(writes(dongle)).toEqual([[110, 30]]);
    expect(session.stats.timeouts).toBe(1);
  });

  it("waits for a late echo without sending the write again, and does not take it for the next write's", async () => {
    const { clock, dongle, session } = await started({ requestTimeoutMs: 5_000 });
    dongle.echoAfterMs = 6_000;
    let first: SessionError | undefined;
    void session.write({ address: 0x11, register: 110, value: 30 }).catch((error: SessionError) => {
      first = error;
    });
    await until(clock, () => expect(writes(dongle)).toHaveLength(1));
    const sentAt = dongle.received[0]?.at ?? Number.NaN;
    await until(clock, () => expect(first?.kind).toBe("timeout"), 100);
    // Asked before the first one's echo: sent at once, it would be answered by that echo (30, not 31).
    let second: string | undefined;
    void session.write({ address: 0x11, register: 110, value: 31 }).then(
      () => {
        second = "written";
      },
      (error: Error) => {
        second = error.message;
      },
    );
    expect(clock.now() - sentAt).toBeLessThan(6_000);
    dongle.echoAfterMs = 0;
    await until(clock, () => expect(second).toBeDefined(), 100);
    expect(second).toBe("written");
    expect(session.stats.lateEchoes).toBe(1);
    expect(session.stats.unsolicited).toBe(0);
    expect(writes(dongle)).toEqual([
      [110, 30],
      [110, 31],
    ]);
    expect((dongle.received[1]?.at ?? 0) - sentAt).toBeGreaterThanOrEqual(6_000);
  });

  it("does not send a write again after the connection dropped before its echo", async () => {
    const { clock, dongle, session } = await started({ backoffMs: 1_000 });
    dongle.writes = "silent";
    let message: string | undefined;
    void session.write({ address: 0x11, register: 110, value: 30 }).catch((error: SessionError) => {
      message = error.message;
    });
    await until(clock, () => expect(writes(dongle)).toHaveLength(1));
    dongle.writes = "echo";
    dongle.sockets[0]?.destroy();
    await until(clock, () => expect(message).toBeDefined());
    expect(message).toMatch(
      /^the connection to 127\.0\.0\.1:\d+ dropped \(the dongle closed it\) before device 0x11 echoed the write of 30 to holding register 110: it may or may not have been applied, and it is not sent again$/,
    );
    await until(clock, () => expect(session.state).toBe("connected"), 100);
    clock.advance(30_000);
    expect(writes(dongle)).toEqual([[110, 30]]);
  });

  it("refuses a value that no register holds, before sending anything", async () => {
    const { session, dongle } = await started();
    await expect(session.write({ address: 0x11, register: 110, value: 70_000 })).rejects.toThrow(/bad write request/);
    expect(dongle.requests()).toHaveLength(0);
  });
});
