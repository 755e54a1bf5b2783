import { connect, createServer, type Server, type Socket } from "node:net";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { EVC_REGISTERS, type ModbusCharger, modbusCharger } from "../../src/evc/index.js";
import { SimClock } from "../../src/simulator/clock.js";
import { EvcModbusServer, MODBUS_ACTOR } from "../../src/simulator/ev/modbus-server.js";
import { charger, info, START, send, sessions } from "../simulator/ev/helpers.js";

/**
 * A TCP proxy between the daemon and the simulated charger that counts the Modbus function codes of
 * the frames the daemon sends: the proof that a refused write never left.
 */
async function countingProxy(upstreamPort: number): Promise<{ port: number; codes: number[]; close(): Promise<void> }> {
  const codes: number[] = [];
  const sockets: Socket[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(upstreamPort, "127.0.0.1");
    sockets.push(client, upstream);
    let pending = Buffer.alloc(0);
    client.on("data", (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      // MBAP: transaction (2), protocol (2), length (2) of what follows: unit (1), function (1), data.
      while (pending.length >= 8) {
        const size = 6 + pending.readUInt16BE(4);
        if (pending.length < size) break;
        codes.push(pending.readUInt8(7));
        pending = pending.subarray(size);
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => client.write(chunk));
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    codes,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const writes = (codes: readonly number[]) => codes.filter((c) => c === 6 || c === 16).length;

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(readBackDelayMs = 0) {
  const clock = new SimClock({ start: START, speed: 0 });
  const model = charger();
  send(model, "set-plug-and-go", { enabled: false });
  send(model, "change-mode", { mode: "Boost" });
  const local = model.local();
  const server = new EvcModbusServer({ charger: local, clock });
  await server.start();
  cleanup.push(() => server.close());
  const proxy = await countingProxy(server.port);
  cleanup.push(() => proxy.close());
  const evc: ModbusCharger = modbusCharger({
    host: "127.0.0.1",
    port: proxy.port,
    clock,
    logger: pino({ level: "silent" }),
    readBackDelayMs,
    timeoutMs: 1000,
  });
  cleanup.push(() => evc.close());
  return { clock, model, local, server, proxy, evc };
}

/** Awaits `work` while moving the manual clock, so the read-back's wait on it can end. */
async function withClock<T>(clock: SimClock, work: Promise<T>, stepMs = 500): Promise<T> {
  let done = false;
  const result = work.finally(() => {
    done = true;
  });
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (!done) clock.advance(stepMs);
  }
  return result;
}

describe("the EV charger over Modbus TCP", () => {
  it("reads the simulated charger's status, power, energy, limit and session energy", async () => {
    const { evc, local, clock, model } = await setup();
    const idle = await evc.read();
    expect(idle).toMatchObject({
      state: "Idle",
      carConnected: false,
      powerW: 0,
      currentLimitA: 32,
      minCurrentA: 6,
      maxCurrentA: 32,
      serial: "GEEVC2301234",
      chargeControl: "Ready",
      sessionEnergyKwh: 0,
    });

    local.plug(true);
    expect((await evc.read()).state).toBe("Connected");
    send(model, "start-charge");
    clock.advance(30 * 60_000);
    const charging = await evc.read();
    expect(charging).toMatchObject({ state: "Charging", carConnected: true, powerW: 7360, chargeControl: "Start" });
    expect(charging.currentA[0]).toBe(32);
    expect(charging.voltageV[0]).toBe(230);
    // 7.36 kW for half an hour.
    expect(charging.sessionEnergyKwh).toBeCloseTo(3.7, 1);
    expect(charging.sessionDurationS).toBe(1800);
    expect(charging.energyKwh).toBeCloseTo(model.local().reading().registerKwh % 6553.6, 0);
    expect(info(model).status).toBe("Charging");
  });

  it("writes the current limit and reads it back: the cloud's view and the power follow", async () => {
    const { evc, local, model, proxy } = await setup();
    local.plug(true);
    send(model, "start-charge");
    const answer = await evc.setCurrentLimit(10);
    expect(answer).toEqual({ outcome: "done", value: 10 });
    expect(writes(proxy.codes)).toBe(1);
    expect(local.currentLimitA()).toBe(10);
    expect(model.powerW()).toBe(2300);
    expect((model.commandData("adjust-charge-power-limit") as { value?: number } | undefined)?.value ?? 10).toBe(10);
    expect((await evc.read()).powerW).toBe(2300);
  });

  it("starts and stops over Modbus, as the cloud's sessions show", async () => {
    const { evc, local, model } = await setup();
    local.plug(true);
    expect(await evc.start()).toEqual({ outcome: "done", value: 1 });
    expect(sessions(model)[0]).toMatchObject({ started_by: MODBUS_ACTOR, stopped_by: null });
    expect(await evc.stop()).toEqual({ outcome: "done", value: 2 });
    expect(sessions(model)[0]).toMatchObject({ stopped_by: MODBUS_ACTOR });
    expect((await evc.read()).state).toBe("End of Charging");
  });

  it("refuses a register off the allowlist without sending anything", async () => {
    const { evc, proxy, server } = await setup();
    await evc.read();
    const reads = proxy.codes.length;
    for (const [address, value] of [
      [EVC_REGISTERS.plugAndGo.address, 1],
      [EVC_REGISTERS.systemTime.address, 2030],
      [0, 1],
      [EVC_REGISTERS.chargeLimit.address, 100],
    ] as const) {
      const answer = await evc.writeRegister(address, value);
      expect(answer.outcome).toBe("refused");
    }
    // Out of the charger's range, and a control value that is neither start nor stop.
    expect((await evc.setCurrentLimit(40)).outcome).toBe("refused");
    expect((await evc.writeRegister(EVC_REGISTERS.setChargeControl.address, 0)).outcome).toBe("refused");
    expect(writes(proxy.codes)).toBe(0);
    expect(server.writes).toEqual([]);
    // The range check read the bounds; nothing else went out.
    expect(proxy.codes.slice(reads).every((c) => c === 3)).toBe(true);
  });

  it("reports a charger that reverts a written limit", async () => {
    const { evc, clock, local, server } = await setup(5000);
    server.faults.revertAfterS = 2;
    const answer = await withClock(clock, evc.setCurrentLimit(12));
    expect(answer).toMatchObject({ outcome: "done", value: 32, reverted: true });
    expect(local.currentLimitA()).toBe(32);
    expect(server.writes).toEqual([expect.objectContaining({ address: 91, values: [120], outcome: "applied" })]);

    // Without the fault the same write holds over the same wait.
    server.faults.revertAfterS = null;
    expect(await withClock(clock, evc.setCurrentLimit(12))).toEqual({ outcome: "done", value: 12 });
  });

  it("answers refused when the charger cannot be reached: nothing was sent", async () => {
    const { evc, proxy, server } = await setup();
    await proxy.close();
    const answer = await evc.start();
    expect(answer.outcome).toBe("refused");
    expect(server.writes).toEqual([]);
  });

  it("answers open when the link drops under a write: it may have applied", async () => {
    const { evc, server } = await setup();
    await evc.read();
    await server.close();
    expect((await evc.start()).outcome).toBe("open");
  });
});
