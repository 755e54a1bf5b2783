import { mkdtempSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { openStore } from "../../src/store/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { startTestSimulator } from "../helpers/simulator.js";

const SERIAL = "SD2024G001";

/** A proxy in front of the simulator's cloud that keeps each request's method and path: the writes are its POSTs to presets and settings. */
async function loggingProxy(target: string): Promise<{ url: string; log: string[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const log: string[] = [];
  const server: Server = createServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const isWrite = (line: string): boolean => /^POST .*\/(presets\/[^/]+|settings\/\d+\/write)$/.test(line);

type ReadData = {
  Control: Record<string, unknown>;
  Timeslots: Record<string, unknown>;
  Power: { Power: Record<string, unknown> };
  raw: { invertor: Record<string, unknown> };
  Stats: Record<string, unknown>;
};

/**
 * GivTCP's REST API driven as Predbat's GivTCP client drives it, on the demo house through the
 * simulator's cloud: every write goes through the control gate, is audited with source
 * `givtcp-rest` and is checked by the next read; a refused value writes nothing.
 */
describe("GivTCP's REST API, as Predbat calls it", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let proxy: Awaited<ReturnType<typeof loggingProxy>>;
  let app: App | undefined;
  let rest = "";
  let storePath = "";
  const base = `e2mgivtcp${process.pid}`;

  const get = async (path: string): Promise<ReadData> => {
    const response = await fetch(`${rest}/${path}`);
    expect(response.status).toBe(200);
    return (await response.json()) as ReadData;
  };
  const post = async (path: string, body: unknown): Promise<{ status: number; result: string }> => {
    const response = await fetch(`${rest}/${path}`, { method: "POST", body: JSON.stringify(body) });
    const answer = (await response.json()) as { result: string };
    return { status: response.status, result: answer.result };
  };

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ requestsPerMinute: 100_000, speed: 0 });
    proxy = await loggingProxy(sim.simulator.url);
    storePath = join(mkdtempSync(join(tmpdir(), "e2m-givtcp-")), "e2m.db");
    const config = configSchema.parse({
      cloud: { url: proxy.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: `${base}-ha`, status_topic: `${base}-ha/status` },
      store: { path: storePath },
      web: { enabled: false },
      givtcp_rest: { port: 0 },
      log: { level: "silent" },
    });
    app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
      clock: sim.simulator.clock,
    });
    rest = app.givtcpRestUrls?.[SERIAL] ?? "";
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await proxy?.close();
    await sim?.stop();
    await broker?.stop();
  });

  it("serves one port per stand-alone inverter, and readData in GivTCP's shape", async () => {
    expect(rest).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const data = await get("readData");
    expect(data.raw.invertor.serial_number).toBe(SERIAL);
    expect(String(data.Stats.GivTCP_Version)).toMatch(/^3/);
    expect(data.Control.Mode).toMatch(/^(Eco|Eco \(Paused\)|Timed Demand|Timed Export|Export \(Paused\))$/);
    expect(data.Control.Enable_Charge_Schedule).toMatch(/^(enable|disable)$/);
    expect(data.Timeslots.Charge_start_time_slot_1).toMatch(/^\d{2}:\d{2}:00$/);
    expect(typeof data.Control.Battery_Power_Reserve).toBe("number");
    expect(typeof data.Power.Power.SOC_kWh).toBe("number");
  });

  it("applies Predbat's writes through the gate, each checked by the next read, and audits them as givtcp-rest", async () => {
    const before = await get("readData");
    const reserve = before.Control.Battery_Power_Reserve === 20 ? 25 : 20;
    const target = before.Control.Target_SOC === 85 ? 80 : 85;
    const from = proxy.log.length;
    const steps: [string, unknown, (data: ReadData) => unknown, unknown][] = [
      ["setChargeSlot1", { start: "01:30", finish: "04:30" }, (d) => d.Timeslots.Charge_start_time_slot_1, "01:30:00"],
      ["setChargeTarget", { chargeToPercent: target }, (d) => d.Control.Target_SOC, target],
      ["enableChargeSchedule", { state: "enable" }, (d) => d.Control.Enable_Charge_Schedule, "enable"],
      ["setBatteryMode", { mode: "Timed Export" }, (d) => d.Control.Mode, "Timed Export"],
      ["setBatteryReserve", { reservePercent: reserve }, (d) => d.Control.Battery_Power_Reserve, reserve],
    ];
    for (const [path, body, read, wanted] of steps) {
      const answer = await post(path, body);
      expect(answer.result, path).toMatch(/was a success$/);
      // Predbat reads runAll after each write and compares.
      expect(read(await get("runAll")), path).toEqual(wanted);
    }
    const after = await get("readData");
    expect(after.Timeslots.Charge_start_time_slot_1).toBe("01:30:00");
    expect(after.Timeslots.Charge_end_time_slot_1).toBe("04:30:00");
    expect(after.Control.Target_SOC).toBe(target);
    expect(after.Control.Enable_Charge_Schedule).toBe("enable");
    expect(after.Control.Mode).toBe("Timed Export");
    expect(after.Control.Battery_Power_Reserve).toBe(reserve);
    expect(proxy.log.slice(from).filter(isWrite).length).toBeGreaterThan(0);

    const reader = openStore(storePath);
    const entries = reader.audit.recent({ limit: 50 }).filter((entry) => entry.source === "givtcp-rest");
    reader.close();
    const applied = entries.filter((entry) => entry.ok).map((entry) => entry.requesterName);
    for (const [path] of steps) expect(applied, path).toContain(path);
    expect(entries.every((entry) => entry.target === SERIAL)).toBe(true);
  });

  it("answers a refused value (reserve 120) in GivTCP's error shape and writes nothing", async () => {
    const before = await get("readData");
    const from = proxy.log.length;
    const answer = await post("setBatteryReserve", { reservePercent: 120 });
    expect(answer.status).toBe(200);
    expect(answer.result).toMatch(/^Setting Battery Reserve failed: .*100/);
    expect(proxy.log.slice(from).filter(isWrite)).toEqual([]);
    expect((await get("runAll")).Control.Battery_Power_Reserve).toBe(before.Control.Battery_Power_Reserve);
    const reader = openStore(storePath);
    const [refusal] = reader.audit
      .recent({ limit: 5 })
      .filter((entry) => entry.source === "givtcp-rest" && entry.requesterName === "setBatteryReserve");
    reader.close();
    expect(refusal).toMatchObject({ ok: false, skipped: false });
  });

  it("answers a body without its field with an error that names the field, and writes nothing", async () => {
    const from = proxy.log.length;
    const answer = await post("setChargeTarget", { chargeTo: 50 });
    expect(answer.status).toBe(400);
    expect(answer.result).toMatch(/^Error: setChargeTarget takes chargeToPercent/);
    expect(proxy.log.slice(from).filter(isWrite)).toEqual([]);
  });

  it("never writes a value that already holds: Predbat's calls repeated with the same values send nothing", async () => {
    await post("setChargeSlot1", { start: "02:00", finish: "05:00" });
    await post("setBatteryReserve", { reservePercent: 30 });
    await get("runAll");
    const writesBefore = proxy.log.filter(isWrite).length;
    const calls: [string, unknown][] = [
      ["setChargeSlot1", { start: "02:00", finish: "05:00" }],
      ["setBatteryReserve", { reservePercent: 30 }],
      ["enableChargeSchedule", { state: "enable" }],
      ["setBatteryMode", { mode: "Timed Export" }],
    ];
    for (let round = 0; round < 3; round++)
      for (const [path, body] of calls) expect((await post(path, body)).result, path).toMatch(/was a success$/);
    expect(proxy.log.filter(isWrite).length).toBe(writesBefore);
    const reader = openStore(storePath);
    const repeated = reader.audit.recent({ limit: calls.length * 3 });
    reader.close();
    expect(repeated).toHaveLength(calls.length * 3);
    expect(repeated.every((entry) => entry.source === "givtcp-rest" && entry.ok && entry.skipped)).toBe(true);
  });
});
