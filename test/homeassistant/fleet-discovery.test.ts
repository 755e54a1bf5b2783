import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { recentFleetScenario, startTestSimulator, TEST_START } from "../helpers/simulator.js";

const INVERTERS = 12;

/**
 * A fleet's first readings each teach the bridge something about their device (its solar
 * arrays), and each sends that device's discovery again: never the whole fleet's.
 */
describe("discovery for a fleet", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let app: App;
  let observer: Awaited<ReturnType<typeof observe>>;
  const base = `e2mfleet${process.pid}`;
  const prefix = `hafleet${process.pid}`;

  beforeAll(async () => {
    broker = await startTestBroker();
    const start = TEST_START;
    sim = await startTestSimulator({
      scenario: recentFleetScenario(INVERTERS, start),
      start,
      requestsPerMinute: 100_000,
    });
    observer = await observe(broker.url, [`${prefix}/#`, `${base}/+`]);
    const config = configSchema.parse({
      cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
      poll: { inverter: "1s", meter: "5s", events: "5s" },
      store: { path: join(mkdtempSync(join(tmpdir(), "e2m-fleet-")), "e2m.db") },
      log: { level: "silent" },
    });
    app = await startApp(config, createLogger("silent"), "0.0.0-test", { clock: sim.simulator.clock });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await observer?.close();
    await sim?.stop();
    await broker?.stop();
  });

  it("sends each device's configs at most twice: at connection, and once when its first reading shows its layout", async () => {
    const serials = app.inventory.inverters.map((i) => i.serial.toLowerCase());
    expect(serials).toHaveLength(INVERTERS);
    const configs = () => observer.messages.filter((m) => m.topic.endsWith("/config") && m.payload !== "");
    // Every inverter has had a live reading (its state holds the battery level)...
    await observer.waitFor(
      () =>
        serials.every((id) => {
          const state = observer.latest.get(`${base}/${id}`);
          return state !== undefined && JSON.parse(state.payload).battery_soc != null;
        }),
      30_000,
    );
    // ...and what that taught the bridge has been sent: wait until discovery is quiet.
    for (let count = -1; count !== configs().length; await new Promise((r) => setTimeout(r, 500)))
      count = configs().length;

    const sent = configs();
    const topics = new Set(sent.map((m) => m.topic));
    const perTopic = new Map<string, number>();
    for (const m of sent) perTopic.set(m.topic, (perTopic.get(m.topic) ?? 0) + 1);
    expect(topics.size).toBeGreaterThan(INVERTERS * 10);
    expect(Math.max(...perTopic.values())).toBeLessThanOrEqual(2);
    expect(sent.length).toBeLessThanOrEqual(2 * topics.size);
  }, 60_000);
});
