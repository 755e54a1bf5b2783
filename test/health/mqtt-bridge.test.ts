import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { bridgeHealthSchema, bridgeInfoSchema, logEventSchema } from "../../src/health/bridge-payloads.js";
import { createLogger, LogFeed } from "../../src/log/log.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { startTestSimulator } from "../helpers/simulator.js";
import { sensorProblems } from "../homeassistant/entities/rules.js";

describe("the bridge's info, health and logging on MQTT, with the daemon on the simulator", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let app: App;
  let observer: Awaited<ReturnType<typeof observe>>;
  const base = `e2mh${process.pid}`;
  const prefix = `hah${process.pid}`;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ requestsPerMinute: 100_000 });
    observer = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
    const config = configSchema.parse({
      cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 5000 },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
      poll: { inverter: "1s", meter: "2s", ems: "1s", ev_charger: "1s", events: "5s", smart_device: "5s" },
      store: { path: join(mkdtempSync(join(tmpdir(), "e2m-bridge-health-")), "e2m.db") },
      log: { level: "silent" },
    });
    const feed = new LogFeed();
    // Warnings must reach the feed even though nothing is printed.
    const logger = createLogger("warn", { destination: { write: () => undefined }, feed });
    app = await startApp(config, logger, "9.9.9-test", { feed, clock: sim.simulator.clock });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await observer?.close();
    await sim?.stop();
    await broker?.stop();
  });

  it("publishes bridge/info, retained: version, what is configured and the device counts, no token", async () => {
    await observer.waitFor((m) => m.topic === `${base}/bridge/info`);
    // Kept by the broker: a client that subscribes later still gets it.
    const late = await observe(broker.url, [`${base}/bridge/info`]);
    const message = await late.waitFor((m) => m.topic === `${base}/bridge/info`).finally(() => late.close());
    expect(message.retain).toBe(true);
    const info = bridgeInfoSchema.parse(JSON.parse(message.payload));
    expect(info).toMatchObject({
      version: "9.9.9-test",
      config: { cloud_host: "127.0.0.1", simulated: false, requests_per_minute: 5000, rules: false, history: true },
      devices: { inverters: 3, ems: 1, ev_chargers: 1, smart_devices: 1, sites: 1 },
    });
    expect(info.config.poll_seconds.inverter).toBe(1);
    for (const m of observer.messages) expect(m.payload).not.toContain(sim.simulator.tokens.owner);
  });

  it("publishes bridge/health: the cloud reachable, requests against the budget, each device's last read, the store", async () => {
    // The first health is sent at connection, before any poll: wait for one that has seen the devices read.
    const message = await observer.waitFor((m) => {
      if (m.topic !== `${base}/bridge/health`) return false;
      const health = bridgeHealthSchema.parse(JSON.parse(m.payload));
      return health.devices.sd2024g001?.last_poll_age_seconds !== null;
    }, 20_000);
    const health = bridgeHealthSchema.parse(JSON.parse(message.payload));
    expect(health.cloud.reachable).toBe(true);
    expect(health.cloud.last_success).not.toBeNull();
    expect(health.requests.limit).toBe(5000);
    expect(health.requests.per_minute).toBeGreaterThan(0);
    expect(health.store).toBe("ok");
    expect(Object.keys(health.devices).sort()).toEqual(
      [
        "sd2024g001",
        "se2024g101",
        "se2024g102",
        "em2024e001",
        "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11",
        "9d7e4c2a-1b3f-4e5d-8a6c-0f1e2d3c4b5a",
      ].sort(),
    );
    expect(health.memory_rss_mb).toBeGreaterThan(10);
  }, 30_000);

  it("announces a bridge device to Home Assistant: cloud connection, requests per minute, last error", async () => {
    const node = `${base}_bridge`;
    const binary = await observer.waitFor((m) => m.topic === `${prefix}/binary_sensor/${node}/cloud_connection/config`);
    expect(JSON.parse(binary.payload)).toMatchObject({
      device_class: "connectivity",
      state_topic: `${base}/bridge/health`,
      device: { identifiers: [node] },
      entity_category: "diagnostic",
    });
    for (const key of ["requests_per_minute", "last_error"]) {
      const config = JSON.parse(
        (await observer.waitFor((m) => m.topic === `${prefix}/sensor/${node}/${key}/config`)).payload,
      ) as Record<string, unknown>;
      expect(config).toMatchObject({ state_topic: `${base}/bridge/health`, unique_id: `${node}_${key}` });
      expect(
        sensorProblems({
          device_class: config.device_class as never,
          unit: config.unit_of_measurement as never,
          state_class: config.state_class as never,
        }),
      ).toEqual([]);
    }
  });

  it("publishes a warning on bridge/logging, and health names it as the last error", async () => {
    const since = Date.now();
    await sim.admin("/devices/SD2024G001", { offline: true });
    try {
      const logged = await observer.waitFor(
        (m) => m.topic === `${base}/bridge/logging` && m.payload.includes("sd2024g001"),
        20_000,
        since,
      );
      const event = logEventSchema.parse(JSON.parse(logged.payload));
      expect(event.level).toBe("warn");
      const health = await observer.waitFor(
        (m) => m.topic === `${base}/bridge/health` && m.payload.includes('"last_error":{'),
        15_000,
        logged.at,
      );
      expect(bridgeHealthSchema.parse(JSON.parse(health.payload)).last_error?.level).toBe("warn");
      // Health is retained, logging is not: a late subscriber gets the one and not the other.
      const late = await observe(broker.url, [`${base}/bridge/health`, `${base}/bridge/logging`]);
      try {
        const kept = await late.waitFor((m) => m.topic === `${base}/bridge/health`);
        expect(kept.retain).toBe(true);
        expect(late.messages.some((m) => m.topic === `${base}/bridge/logging` && m.retain)).toBe(false);
      } finally {
        await late.close();
      }
    } finally {
      await sim.admin("/devices/SD2024G001", { offline: false });
    }
  }, 45_000);
});
