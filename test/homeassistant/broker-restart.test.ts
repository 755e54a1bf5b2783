import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { startTestSimulator } from "../helpers/simulator.js";

/**
 * Every retained message under the filters, as a fresh client sees it now: the broker sends the
 * retained ones on subscribing, before a marker published afterwards.
 */
async function retained(url: string, filters: readonly string[], markerTopic: string): Promise<Map<string, string>> {
  const client = await mqtt.connectAsync(url, { clientId: `retained_${Math.random().toString(16).slice(2)}` });
  try {
    const found = new Map<string, string>();
    const marker = `marker-${Math.random()}`;
    const done = new Promise<void>((resolve) => {
      client.on("message", (topic, payload, packet) => {
        if (topic === markerTopic && payload.toString() === marker) resolve();
        else if (packet.retain && payload.length > 0) found.set(topic, payload.toString());
      });
    });
    await client.subscribeAsync([...filters, markerTopic], { qos: 1 });
    await client.publishAsync(markerTopic, marker, { qos: 1 });
    await done;
    return found;
  } finally {
    await client.endAsync(true);
  }
}

describe("after a broker restart without persistence", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let app: App;
  const dir = mkdtempSync(join(tmpdir(), "e2m-restart-"));
  const base = `e2mr${process.pid}`;
  const prefix = `har${process.pid}`;
  const filters = [`${base}/#`, `${prefix}/#`];
  const marker = `marker${process.pid}/done`;

  beforeAll(async () => {
    broker = await startTestBroker();
    if (!broker.restart) throw new Error("this broker cannot be restarted");
    sim = await startTestSimulator({ requestsPerMinute: 100_000 });
    writeFileSync(
      join(dir, "rules.yaml"),
      [
        "tariffs:",
        "  currency: GBP",
        "  import: { type: fixed, price: 0.25 }",
        "rules:",
        "  - name: new-year-note",
        '    when: { cron: "0 12 1 1 *" }',
        "    do:",
        '      - notify: { title: "Happy new year", body: "The house is running on its rules." }',
      ].join("\n"),
    );
    const config = configSchema.parse({
      cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
      poll: { inverter: "1s", meter: "1s", ems: "1s", ev_charger: "1s" },
      store: { path: join(dir, "e2m.db") },
      rules: join(dir, "rules.yaml"),
      log: { level: "silent" },
    });
    app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
      clock: sim.simulator.clock,
    });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await sim?.stop();
    await broker?.stop();
  });

  it("every retained topic is published again: discovery, availability, each device's state, the dongles', the bridge's and the rules'", async () => {
    // Start-up publishes in bursts (discovery, live values, control values as they are read):
    // wait for the first live reading and the charger's controls (read last, in the background),
    // then until it settles. Every device has a state from the start (its "Stale values"), so the
    // count of topics alone does not say that the controls were read.
    let before = new Map<string, string>();
    const live = (): boolean =>
      (before.get(`${base}/sd2024g001`)?.includes('"solar_array_1_power"') ?? false) &&
      /"mode":"/.test(before.get(`${base}/6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11`) ?? "");
    for (let previous = -1; previous !== before.size || !live(); await new Promise((r) => setTimeout(r, 500))) {
      previous = before.size;
      before = await retained(broker.url, filters, marker);
    }
    expect(before.get(`${base}/bridge/state`)).toBe(JSON.stringify({ state: "online" }));
    expect([...before.keys()].some((topic) => topic.startsWith(`${base}/wf2024d001`))).toBe(true);
    expect([...before.keys()].some((topic) => topic.startsWith(`${base}/rules/`))).toBe(true);
    // The simulated hybrid reports one solar array: the second, announced before its first
    // reading, has been taken away again rather than left behind.
    expect([...before.keys()].filter((topic) => topic.includes("/sd2024g001/solar_array_2_"))).toEqual([]);

    await broker.restart?.();
    expect((await retained(broker.url, filters, marker)).size).toBeLessThan(before.size);

    const deadline = Date.now() + 20_000;
    let after = new Map<string, string>();
    while (Date.now() < deadline) {
      after = await retained(broker.url, filters, marker);
      if ([...before.keys()].every((topic) => after.has(topic))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect([...before.keys()].filter((topic) => !after.has(topic))).toEqual([]);
    // Discovery comes back as it was, not merely present.
    for (const [topic, payload] of before) {
      if (topic.startsWith(`${prefix}/`)) expect(after.get(topic), topic).toBe(payload);
    }
  }, 60_000);
});
