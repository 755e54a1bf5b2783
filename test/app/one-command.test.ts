import { mkdtempSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { ModbusFunction } from "../../src/local/index.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { type DongleForward, startDongleForward } from "../helpers/dongle-forward.js";
import { observe } from "../helpers/mqtt-observer.js";
import { MIDDAY, startTestSimulator } from "../helpers/simulator.js";

const INVERTER = "sd2024g001";
const RESERVE = "battery_operating_range_reserve_percent";

/** A proxy in front of the simulator that logs every request's method and path, as the cloud would count them. */
async function loggingProxy(target: string): Promise<{ url: string; log: string[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const log: string[] = [];
  const server: Server = createServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
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

/**
 * Issue 24's measure: one reserve change from Home Assistant on the demo house costs one write,
 * at most one read of what was written, and one publish of the device's state; no unrelated
 * setting is read again and no poll follows. The simulator's clock stands still, so no regular
 * poll runs meanwhile.
 */
describe("one command on the demo house", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let proxy: Awaited<ReturnType<typeof loggingProxy>>;
  let app: App | undefined;
  const base = `e2mone${process.pid}`;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ requestsPerMinute: 100_000, speed: 0 });
    proxy = await loggingProxy(sim.simulator.url);
    const config = configSchema.parse({
      cloud: { url: proxy.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: `${base}-ha`, status_topic: `${base}-ha/status` },
      store: { path: join(mkdtempSync(join(tmpdir(), "e2m-one-")), "e2m.db") },
      log: { level: "silent" },
    });
    app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
      clock: sim.simulator.clock,
    });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await proxy?.close();
    await sim?.stop();
    await broker?.stop();
  });

  it("makes at most 2 requests to the settings and presets, and publishes the device's state once", async () => {
    const observer = await observe(broker.url, [`${base}/${INVERTER}`, `${base}/${INVERTER}/result`]);
    const quiet = async () => {
      // The controls are read in the background after start, and a command's work ends after its result.
      for (let count = -1; count !== proxy.log.length; await new Promise((r) => setTimeout(r, 1000)))
        count = proxy.log.length;
    };
    await quiet();
    await observer.waitFor((m) => m.topic === `${base}/${INVERTER}`);
    const state = observer.latest.get(`${base}/${INVERTER}`)?.payload ?? "{}";
    const before = (JSON.parse(state) as Record<string, unknown>)[RESERVE];
    expect(typeof before).toBe("number");
    const wanted = before === 30 ? 35 : 30;
    const requests = proxy.log.length;
    const mark = observer.messages.length;
    await observer.publish(`${base}/${INVERTER}/set/${RESERVE}`, String(wanted));
    const result = await observer.waitFor((m) => observer.messages.indexOf(m) >= mark && m.topic.endsWith("/result"));
    expect(JSON.parse(result.payload)).toMatchObject({ ok: true });
    await quiet();
    const cloud = proxy.log.slice(requests);
    const controls = cloud.filter((line) => /\/(settings|presets)\b/.test(line));
    const published = observer.messages.slice(mark).filter((m) => m.topic === `${base}/${INVERTER}`);
    console.log(
      `[one-command] cloud requests: ${cloud.length} (${cloud.join(", ")}); to settings/presets: ${controls.length}; state publishes: ${published.length}`,
    );
    expect(JSON.parse(published.at(-1)?.payload ?? "{}")).toMatchObject({ [RESERVE]: wanted });
    expect(controls.length).toBeLessThanOrEqual(2);
    expect(cloud.length).toBe(controls.length);
    expect(published).toHaveLength(1);
    await observer.close();
  }, 60_000);
});

/**
 * The same measure over the LAN (issue 36): a daemon with `source: local` on the simulator's
 * dongles, the inverter's reached through a forwarder that decodes every frame the daemon sends.
 * One reserve change (battery-operating-range's reserve, as over the cloud) costs exactly one
 * write frame (HR 110, the reserve), at most one read of the registers written after that write,
 * and one publish of the device's state. (Before the write the gate reads what the device holds,
 * so that a value it already has is not written: a read is cheap on the LAN, a write wears it.)
 */
describe("one command over the LAN", () => {
  const SERIAL = "SD2024G001";
  /** The reserve's holding register on the Hybrid Gen1. */
  const RESERVE_REGISTER = 110;
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let forward: DongleForward;
  let app: App | undefined;
  const base = `e2mlan${process.pid}`;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
    const own = sim.simulator.dongles.find((dongle) => dongle.deviceSerial === SERIAL);
    if (!own) throw new Error(`no dongle for ${SERIAL}`);
    forward = await startDongleForward(own.port);
    const config = configSchema.parse({
      source: "local",
      local: sim.simulator.dongles.map((dongle) => ({
        host: "127.0.0.1",
        port: dongle.deviceSerial === SERIAL ? forward.port : dongle.port,
      })),
      // Nothing polls again while the command is measured.
      poll: { local: "1h", inventory: "1h", meter: "1h", inverter: "1h", ems: "1h" },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: `${base}-ha`, status_topic: `${base}-ha/status` },
      store: { path: join(mkdtempSync(join(tmpdir(), "e2m-one-lan-")), "e2m.db") },
      web: { enabled: false },
      log: { level: "silent" },
    });
    app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
      clock: new SimClock({ start: MIDDAY }),
    });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await forward?.close();
    await sim?.stop();
    await broker?.stop();
  });

  it("sends one write frame, reads the written block back at most once, and publishes the device's state once", async () => {
    const observer = await observe(broker.url, [`${base}/${INVERTER}`, `${base}/${INVERTER}/result`]);
    const quiet = async () => {
      // The controls are read in the background after start, and a command's work ends after its result.
      for (let count = -1; count !== forward.sent.length; await new Promise((r) => setTimeout(r, 1000)))
        count = forward.sent.length;
    };
    await observer.waitFor((m) => m.topic === `${base}/${INVERTER}`, 30_000);
    await quiet();
    const state = observer.latest.get(`${base}/${INVERTER}`)?.payload ?? "{}";
    const before = (JSON.parse(state) as Record<string, unknown>)[RESERVE];
    expect(typeof before).toBe("number");
    const wanted = before === 30 ? 35 : 30;
    const frames = forward.sent.length;
    const mark = observer.messages.length;
    await observer.publish(`${base}/${INVERTER}/set/${RESERVE}`, String(wanted));
    const result = await observer.waitFor((m) => observer.messages.indexOf(m) >= mark && m.topic.endsWith("/result"));
    expect(JSON.parse(result.payload)).toMatchObject({ ok: true });
    await quiet();
    const requests = forward.sent.slice(frames).flatMap((frame) => (frame.kind === "request" ? [frame] : []));
    const writes = requests.filter((frame) => frame.function === ModbusFunction.writeSingle);
    const afterWrite = requests.slice(requests.findIndex((frame) => frame.function === ModbusFunction.writeSingle) + 1);
    const readsBack = afterWrite.filter(
      (frame) =>
        frame.function === ModbusFunction.readHolding &&
        frame.base <= RESERVE_REGISTER &&
        RESERVE_REGISTER < frame.base + frame.count,
    );
    const published = observer.messages.slice(mark).filter((m) => m.topic === `${base}/${INVERTER}`);
    console.log(
      `[one-command LAN] frames sent: ${requests.length} (${requests.map((frame) => `fn ${frame.function} ${frame.base}+${frame.count}`).join(", ")}); writes: ${writes.length}; reads of HR ${RESERVE_REGISTER} after it: ${readsBack.length}; state publishes: ${published.length}`,
    );
    // A write frame carries the register in `base` and the value in `count`.
    expect(writes.map((frame) => [frame.base, frame.count])).toEqual([[RESERVE_REGISTER, wanted]]);
    expect(readsBack.length).toBeLessThanOrEqual(1);
    expect(JSON.parse(published.at(-1)?.payload ?? "{}")).toMatchObject({ [RESERVE]: wanted });
    expect(published).toHaveLength(1);
    await observer.close();
  }, 90_000);
});
