import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { startTestSimulator } from "../helpers/simulator.js";

/**
 * The device kinds the real service lists (issue 11), each from its own simulator scenario, run
 * through the real daemon and a real broker: what Home Assistant is told about each.
 */

type Config = {
  unique_id: string;
  value_template?: string;
  device: { model?: string; name?: string; via_device?: string };
};

let broker: TestBroker;
beforeAll(async () => {
  broker = await startTestBroker();
}, 30_000);
afterAll(async () => {
  await broker?.stop();
});

async function runScenario(scenario: string) {
  const sim = await startTestSimulator({ scenario, requestsPerMinute: 100_000 });
  const base = `kinds${process.pid}${scenario.replace(/\W/g, "")}`;
  const prefix = `ha${base}`;
  const observer = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
  const dir = mkdtempSync(join(tmpdir(), "e2m-kinds-"));
  const config = configSchema.parse({
    cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
    mqtt: { url: broker.url, base_topic: base },
    homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
    poll: {
      inverter: "2s",
      meter: "2s",
      ems: "2s",
      ev_charger: "2s",
      events: "5s",
      smart_device: "5s",
      inventory: "1h",
    },
    store: { path: join(dir, "e2m.db") },
    log: { level: "silent" },
  });
  const app: App = await startApp(config, createLogger("silent"), "0.0.0-test", { clock: sim.simulator.clock });
  await observer.waitFor((m) => m.topic === `${base}/bridge/state` && m.payload.includes("online"));
  // startApp returns once the devices are announced: the configs are on the broker.
  await observer.waitFor((m) => m.topic.startsWith(`${prefix}/`) && m.topic.endsWith("/config"), 15_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const configs = (node: string) =>
    [...observer.latest.values()]
      .filter((m) => m.topic.startsWith(`${prefix}/`) && m.topic.split("/")[2] === node && m.payload !== "")
      .map((m) => ({ component: m.topic.split("/")[1], config: JSON.parse(m.payload) as Config }));
  const state = (node: string) =>
    JSON.parse(observer.latest.get(`${base}/${node}`)?.payload ?? "{}") as Record<string, unknown>;
  return {
    sim,
    base,
    observer,
    configs,
    state,
    stop: async () => {
      await app.stop();
      await observer.close();
      await sim.stop();
    },
  };
}

describe("device kinds of the real service, end to end", () => {
  it("a Plant EMS is an EMS device with its controls, written through the inverter endpoints; its children hang off it", async () => {
    const run = await runScenario("plant-ems");
    try {
      const plant = run.configs("em2025e001");
      expect(plant.length).toBeGreaterThan(0);
      expect(plant[0]?.config.device).toMatchObject({ model: "Plant EMS", name: "EMS EM2025E001" });
      expect(plant.some((c) => c.component === "sensor" && c.config.unique_id.endsWith("_status"))).toBe(true);
      const controls = plant.filter((c) => ["switch", "number", "select", "time"].includes(c.component ?? ""));
      expect(controls.length).toBeGreaterThan(0);
      for (const child of ["se2025g201", "se2025g202"]) {
        const entities = run.configs(child);
        expect(entities.length).toBeGreaterThan(0);
        expect(entities.every((c) => c.config.device.via_device === "energy2mqtt_em2025e001")).toBe(true);
        expect(entities.filter((c) => c.component !== "sensor" && c.component !== "binary_sensor")).toEqual([]);
      }
      // A command to the plant goes through the gate to the EMS's own setting.
      const since = Date.now();
      await run.observer.publish(`${run.base}/em2025e001/set/setting_battery_reserve_percent_limit`, "27");
      const result = await run.observer.waitFor(
        (m) => m.topic === `${run.base}/em2025e001/result` && m.at >= since,
        15_000,
      );
      expect(JSON.parse(result.payload)).toMatchObject({ ok: true });
      const owner = run.sim.clientFor("owner");
      expect(await owner.inverterControl.readSetting("EM2025E001", 71)).toMatchObject({ ok: true, value: 27 });
    } finally {
      await run.stop();
    }
  }, 60_000);

  it("a Gateway is a controllable device whose entities are only those it has data for; its All-In-Ones are read-only inverters", async () => {
    const run = await runScenario("gateway");
    try {
      const gateway = run.configs("gw2024g001");
      expect(gateway[0]?.config.device.model).toBe("Gateway");
      expect(gateway.some((c) => c.component === "switch")).toBe(true);
      // Every data-driven sensor it announces has had a value: nothing announced for the nulls a gateway sends.
      const state = run.state("gw2024g001");
      const live = gateway.filter(
        (c) => c.component === "sensor" && /(power|voltage|current|frequency|temperature)$/.test(c.config.unique_id),
      );
      expect(live.length).toBeGreaterThan(0);
      for (const { config } of live) {
        const key = config.value_template?.match(/value_json\.(\w+)/)?.[1] ?? "";
        expect(state[key], key).not.toBeNull();
      }
      for (const child of ["ch2024a001", "ch2024a002"]) {
        const entities = run.configs(child);
        expect(entities[0]?.config.device.model).toBe("All-In-One");
        expect(entities.filter((c) => c.component === "switch" || c.component === "number")).toEqual([]);
      }
    } finally {
      await run.stop();
    }
  }, 60_000);

  it("an All-In-One shows its battery size, and its dongle's integer firmware as the dongle's version", async () => {
    const run = await runScenario("aio");
    try {
      const aio = run.configs("ch2024a001");
      expect(aio[0]?.config.device.model).toBe("All-In-One");
      expect(aio.some((c) => c.config.unique_id === "energy2mqtt_ch2024a001_battery_capacity")).toBe(true);
      expect(run.state("ch2024a001").battery_capacity).toBeGreaterThan(10);
      const dongle = run.configs("wg2024a001");
      expect(dongle[0]?.config.device).toMatchObject({ sw_version: "904" });
    } finally {
      await run.stop();
    }
  }, 60_000);

  it("a three-phase hybrid publishes its live values", async () => {
    const run = await runScenario("three-phase");
    try {
      const inverter = run.configs("st2024g001");
      expect(inverter[0]?.config.device.model).toMatch(/3HY/);
      await run.observer.waitFor(
        (m) => m.topic === `${run.base}/st2024g001` && typeof JSON.parse(m.payload).grid_power === "number",
      );
    } finally {
      await run.stop();
    }
  }, 60_000);
});
