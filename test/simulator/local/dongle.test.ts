import { createConnection, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildHeartbeat, buildReadRequest, type Frame, parseFrame } from "../../../src/local/frame.js";
import { Framer } from "../../../src/local/framer.js";
import type { SimDongle } from "../../../src/simulator/local/dongle.js";
import { startTestSimulator } from "../../helpers/simulator.js";
import { driven, openSession } from "./read-dongle.js";

const START = Date.UTC(2025, 5, 15, 11, 0, 0);
/**
 * What a socket brings, waited for: vi.waitFor's one second is a dongle's answer on a quiet
 * machine, not with other test files busy on both cores (CI missed one once).
 */
const eventually = (check: () => void) => vi.waitFor(check, { timeout: 5_000 });

/** A bare TCP client on 127.0.0.1 that records what the dongle sends, CRC failures included. */
class RawClient {
  readonly received: { frame: Frame; crcOk: boolean }[] = [];
  closed = false;
  private readonly framer = new Framer();
  private constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      for (const event of this.framer.push(chunk)) {
        if (event.type === "frame") this.received.push({ frame: parseFrame(event.bytes), crcOk: event.crcOk });
      }
    });
    socket.on("close", () => {
      this.closed = true;
    });
    socket.on("error", () => {});
  }
  static async connect(port: number): Promise<RawClient> {
    const socket = createConnection({ host: "127.0.0.1", port });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    return new RawClient(socket);
  }
  read(address: number, fn: 3 | 4, base: number, count: number): void {
    this.socket.write(buildReadRequest({ dongleSerial: "AB1234G000", address, function: fn, base, count }));
  }
  kinds(): string[] {
    return this.received.map(({ frame }) => frame.kind);
  }
}

type Sim = Awaited<ReturnType<typeof startTestSimulator>>;
let sim: Sim | undefined;
const clients: RawClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.destroy();
  await sim?.stop();
  sim = undefined;
});

async function hybrid(options: { delayMs?: number; heartbeatMs?: number } = {}) {
  sim = await startTestSimulator({
    scenario: "hybrid",
    speed: 0,
    start: START,
    localPort: 0,
    localResponseDelayMs: options.delayMs ?? 0,
    ...(options.heartbeatMs === undefined ? {} : { localHeartbeatMs: options.heartbeatMs }),
  });
  const dongle = sim.simulator.local?.dongles[0];
  if (!dongle) throw new Error("no dongle");
  return { sim, dongle };
}

async function connect(dongle: SimDongle, count = 1): Promise<RawClient[]> {
  const before = dongle.clientCount;
  const opened = await Promise.all(Array.from({ length: count }, () => RawClient.connect(dongle.port)));
  clients.push(...opened);
  await eventually(() => expect(dongle.clientCount).toBe(before + count));
  return opened;
}

describe("a simulated dongle speaks the framed protocol", () => {
  it("prints as the scenario's dongle and inverter serials", async () => {
    const { sim } = await hybrid();
    expect(sim.simulator.dongles).toEqual([
      expect.objectContaining({ dongleSerial: "WF2024H001", deviceSerial: "SH2024G001", kind: "inverter" }),
    ]);
  });

  it("refuses registers the model lacks with an error response, and the session reports it", async () => {
    const { dongle } = await hybrid();
    const { session, clock, frames } = openSession(dongle.port);
    try {
      await expect(driven(clock, session.read({ address: 0x11, function: 4, base: 2040, count: 60 }))).rejects.toThrow(
        /refused registers 2040-2099/,
      );
      expect(frames).toContainEqual(
        expect.objectContaining({ kind: "error", function: 4, base: 2040, count: 60, deviceSerial: "SH2024G001" }),
      );
      // The facade at 0x31 is the same register file.
      const [status] = await driven(clock, session.read({ address: 0x31, function: 4, base: 0, count: 1 }));
      expect(status).toBe(1);
    } finally {
      session.close();
    }
    expect(dongle.stats.errorResponses).toBe(1);
  });

  it("stays silent for an address with no device, as a real device chain does", async () => {
    const { dongle } = await hybrid();
    const { session, clock } = openSession(dongle.port, { requestTimeoutMs: 5_000 });
    try {
      await expect(driven(clock, session.read({ address: 0x40, function: 4, base: 0, count: 10 }))).rejects.toThrow(
        /no answer/,
      );
    } finally {
      session.close();
    }
    expect(dongle.stats.unanswered).toBe(1);
  });

  it("goes on answering while the cloud hears nothing: LOST is the cloud's word, the inverter shows NORMAL", async () => {
    const { sim, dongle } = await hybrid();
    const base = sim.simulator.url.replace(/\/v1$/, "");
    const offline = await fetch(`${base}/__admin/devices/SH2024G001`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ offline: true }),
    });
    expect(offline.status).toBe(200);
    sim.simulator.clock.advance(600_000);
    const cloud = await sim.clientFor("owner").inverterData.systemDataLatest("SH2024G001");
    expect(cloud.status).toBe("Lost");
    const { session, clock } = openSession(dongle.port);
    try {
      const [status] = await driven(clock, session.read({ address: 0x11, function: 4, base: 0, count: 1 }));
      expect(status).toBe(1);
    } finally {
      session.close();
    }
  });

  it("sends every answer to every connected client", async () => {
    const { dongle } = await hybrid();
    const [asking, listening] = await connect(dongle, 2);
    asking?.read(0x11, 4, 0, 60);
    await eventually(() => expect(listening?.kinds()).toEqual(["response"]));
    expect(asking?.kinds()).toEqual(["response"]);
    expect(listening?.received[0]?.frame).toMatchObject({ base: 0, count: 60, deviceSerial: "SH2024G001" });
  });

  it("counts requests by the client's port: the one that asks, not the one that listens", async () => {
    const { dongle } = await hybrid();
    const [asking, listening] = await connect(dongle, 2);
    asking?.read(0x11, 4, 0, 60);
    asking?.read(0x11, 3, 0, 60);
    await eventually(() => expect(listening?.kinds()).toEqual(["response", "response"]));
    expect(dongle.requestsByClientPort.get(asking?.socket.localPort ?? -1)).toBe(2);
    expect(dongle.requestsByClientPort.has(listening?.socket.localPort ?? -1)).toBe(false);
  });

  it("answers one request at a time, each after its delay on the simulator's clock", async () => {
    const { sim, dongle } = await hybrid({ delayMs: 500 });
    const [client] = await connect(dongle);
    client?.read(0x11, 4, 0, 60);
    client?.read(0x11, 3, 0, 60);
    await eventually(() => expect(dongle.stats.requests).toBe(2));
    sim.simulator.clock.advance(499);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(dongle.stats.responses).toBe(0);
    sim.simulator.clock.advance(1);
    expect(dongle.stats.responses).toBe(1);
    sim.simulator.clock.advance(499);
    expect(dongle.stats.responses).toBe(1);
    sim.simulator.clock.advance(1);
    expect(dongle.stats.responses).toBe(2);
    await eventually(() =>
      expect(client?.received.map(({ frame }) => (frame.kind === "response" ? frame.function : 0))).toEqual([4, 3]),
    );
  });

  it("sends heartbeats and closes a client that leaves three unanswered; one that echoes stays", async () => {
    const { sim, dongle } = await hybrid({ heartbeatMs: 60_000 });
    const [echoing, silent] = await connect(dongle, 2);
    if (!echoing || !silent) throw new Error("no clients");
    let echoed = 0;
    for (let beat = 1; beat <= 4; beat++) {
      sim.simulator.clock.advance(60_000);
      if (beat === 4) break;
      await eventually(() => expect(echoing.kinds().filter((kind) => kind === "heartbeat")).toHaveLength(beat));
      const last = echoing.received.at(-1)?.frame;
      expect(last).toMatchObject({ kind: "heartbeat", dongleSerial: "WF2024H001", beat });
      if (last?.kind === "heartbeat") {
        echoing.socket.write(buildHeartbeat("WF2024H001", beat));
        echoed++;
      }
      await eventually(() => expect(dongle.stats.heartbeatsEchoed).toBe(echoed));
    }
    await eventually(() => expect(silent.closed).toBe(true));
    expect(echoing.closed).toBe(false);
    expect(dongle.stats.closedForMissedHeartbeats).toBe(1);
    expect(silent.kinds()).toEqual(["heartbeat", "heartbeat", "heartbeat"]);
  });
});

describe("the dongles' admin faults", () => {
  const admin = async (path: string, body?: unknown, method = "POST") => {
    if (!sim) throw new Error("no simulator");
    const base = sim.simulator.url.replace(/\/v1$/, "");
    const response = await fetch(`${base}/__admin${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: unknown } };
  };

  it("lists the dongles, refuses a bad fault with what to fix, and finds a dongle by either serial in any case", async () => {
    await hybrid();
    const list = await admin("/dongles", undefined, "GET");
    expect(list.body.data).toEqual([
      expect.objectContaining({ dongle_serial: "WF2024H001", device_serial: "SH2024G001", clients: 0 }),
    ]);
    const bad = await admin("/dongles/WF2024H001", { drop_every_s: -1, nonsense: true });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toMatch(/drop_every_s/);
    expect((await admin("/dongles/sh2024g001", { silent_battery: true })).status).toBe(200);
    expect((await admin("/dongles/NOPE", {})).status).toBe(404);
  });

  it("corrupts the tail of the next answer (its CRC fails), then answers cleanly again", async () => {
    const { dongle } = await hybrid();
    await admin("/dongles/WF2024H001", { corrupt_frames: 1 });
    const [client] = await connect(dongle);
    client?.read(0x11, 4, 0, 60);
    client?.read(0x11, 4, 0, 60);
    await eventually(() => expect(client?.received).toHaveLength(2));
    expect(client?.received.map(({ crcOk, frame }) => [crcOk, frame.kind])).toEqual([
      [false, "crc-failure"],
      [true, "response"],
    ]);
  });

  it("answers with another device serial (answer_as) at every address, then with each device's own again", async () => {
    const { dongle } = await hybrid();
    const [client] = await connect(dongle);
    await admin("/dongles/WF2024H001", { answer_as: "ZZ9999Z999" });
    client?.read(0x11, 4, 0, 60);
    client?.read(0x32, 4, 60, 60);
    client?.read(0x11, 3, 9_000, 1);
    await eventually(() => expect(client?.received).toHaveLength(3));
    expect((await admin("/dongles/WF2024H001", undefined, "GET")).body.data).toMatchObject({
      faults: { answer_as: "ZZ9999Z999" },
    });
    await admin("/dongles/WF2024H001", { answer_as: "" });
    client?.read(0x11, 4, 0, 60);
    await eventually(() => expect(client?.received).toHaveLength(4));
    expect(
      client?.received.map(({ frame }) =>
        frame.kind === "response" || frame.kind === "error" ? [frame.kind, frame.deviceSerial] : [frame.kind],
      ),
    ).toEqual([
      ["response", "ZZ9999Z999"],
      ["response", "ZZ9999Z999"],
      ["error", "ZZ9999Z999"],
      ["response", "SH2024G001"],
    ]);
  });

  it("a silent battery: the packs answer nothing while the inverter still answers", async () => {
    const { dongle } = await hybrid();
    const [client] = await connect(dongle);
    client?.read(0x32, 4, 60, 60);
    await eventually(() => expect(client?.received).toHaveLength(1));
    await admin("/dongles/WF2024H001", { silent_battery: true });
    client?.read(0x32, 4, 60, 60);
    client?.read(0x11, 4, 0, 60);
    await eventually(() => expect(client?.received).toHaveLength(2));
    expect(client?.received.map(({ frame }) => (frame.kind === "response" ? frame.address : -1))).toEqual([0x32, 0x11]);
    expect(dongle.stats.unanswered).toBe(1);
  });

  it("sends LAN broadcasts every N seconds, and drops every connection every N seconds", async () => {
    const { sim, dongle } = await hybrid();
    await admin("/dongles/WF2024H001", { broadcast_every_s: 30, drop_every_s: 45 });
    const [client] = await connect(dongle);
    sim.simulator.clock.advance(30_000);
    await eventually(() => expect(client?.kinds()).toEqual(["broadcast"]));
    expect(client?.received[0]?.frame).toMatchObject({ text: "192.168.0.50,255.255.255.0,192.168.0.1" });
    sim.simulator.clock.advance(15_000);
    await eventually(() => expect(client?.closed).toBe(true));
    expect(dongle.stats.drops).toBe(1);
    // Off again: no more drops.
    await admin("/dongles/WF2024H001", { drop_every_s: 0, broadcast_every_s: 0 });
    const [next] = await connect(dongle);
    sim.simulator.clock.advance(90_000);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(next?.closed).toBe(false);
    expect(next?.kinds().filter((kind) => kind !== "heartbeat")).toEqual([]);
  });
});
