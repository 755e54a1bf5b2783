import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { openStore } from "../../src/store/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { NEW_YEAR_RULES_YAML } from "../helpers/new-year-rules.js";
import { startTestSimulator } from "../helpers/simulator.js";

const RULES = JSON.parse(
  readFileSync(new URL("../fixtures/ha-sensor-device-class-rules.json", import.meta.url), "utf8"),
) as Record<string, { units: (string | null)[] | string; state_classes_allowed: string[] | string }>;
const INVERTER = "sd2024g001";

describe("the daemon against a real broker and the simulator", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let app: App;
  let observer: Awaited<ReturnType<typeof observe>>;
  const dir = mkdtempSync(join(tmpdir(), "e2m-daemon-"));
  const storePath = join(dir, "e2m.db");
  const base = `e2m${process.pid}`;
  const prefix = `ha${process.pid}`;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ requestsPerMinute: 100_000 });
    observer = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
    const config = configSchema.parse({
      cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
      poll: {
        inverter: "1s",
        meter: "1s",
        ems: "1s",
        ev_charger: "1s",
        events: "2s",
        smart_device: "2s",
        inventory: "1s",
      },
      store: { path: storePath },
      rules: join(dir, "rules.yaml"),
      log: { level: "silent" },
    });
    // A rule that never fires during the test: its entities and the prices are what is checked.
    writeFileSync(join(dir, "rules.yaml"), NEW_YEAR_RULES_YAML);
    // Left by an earlier run: a device that has since left the account, and another integration's config.
    await observer.client.publishAsync(
      `${prefix}/sensor/gone0001/battery_soc/config`,
      JSON.stringify({ unique_id: "energy2mqtt_gone0001_battery_soc", state_topic: `${base}/gone0001` }),
      { qos: 1, retain: true },
    );
    await observer.client.publishAsync(
      `${prefix}/sensor/0xabc/temperature/config`,
      JSON.stringify({ unique_id: "0xabc_temperature", state_topic: "zigbee2mqtt/0xabc" }),
      { qos: 1, retain: true },
    );
    app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
      clock: sim.simulator.clock,
    });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await observer?.close();
    await sim?.stop();
    await broker?.stop();
  });

  it("announces itself online and publishes discovery that follows Home Assistant's sensor rules", async () => {
    await observer.waitFor((m) => m.topic === `${base}/bridge/state` && JSON.parse(m.payload).state === "online");
    await observer.waitFor((m) => m.topic === `${prefix}/sensor/${INVERTER}/battery_soc/config`);
    const sensorConfigs = () =>
      [...observer.latest.values()].filter(
        (m) => m.topic.startsWith(`${prefix}/sensor/`) && m.payload.includes('"unique_id":"energy2mqtt_'),
      );
    // Discovery arrives as a burst: wait until it has been quiet for a moment.
    for (let count = -1; count !== sensorConfigs().length; await new Promise((r) => setTimeout(r, 300)))
      count = sensorConfigs().length;
    const sensors = sensorConfigs();
    expect(sensors.length).toBeGreaterThan(50);
    const problems: string[] = [];
    for (const message of sensors) {
      const config = JSON.parse(message.payload) as Record<string, unknown>;
      for (const key of ["unique_id", "device", "origin", "availability", "state_topic"]) {
        if (!(key in config)) problems.push(`${message.topic}: no ${key}`);
      }
      const deviceClass = config.device_class as string | undefined;
      if (!deviceClass || deviceClass === "enum") continue;
      const rule = RULES[deviceClass];
      if (!rule) {
        problems.push(`${message.topic}: unknown device_class ${deviceClass}`);
        continue;
      }
      // The rules say two things in words: NONE (timestamp, date, enum: no unit at all) and ANY
      // (monetary: an ISO 4217 currency).
      const unit = (config.unit_of_measurement as string | undefined) ?? null;
      const unitAllowed =
        typeof rule.units !== "string"
          ? rule.units.includes(unit)
          : rule.units.startsWith("ANY")
            ? unit !== null && /^[A-Z]{3}$/.test(unit)
            : unit === null;
      if (!unitAllowed) {
        problems.push(`${message.topic}: unit ${String(config.unit_of_measurement)} not allowed for ${deviceClass}`);
      }
      const allowed = rule.state_classes_allowed;
      if (Array.isArray(allowed) && config.state_class !== undefined && !allowed.includes(String(config.state_class))) {
        problems.push(`${message.topic}: state_class ${String(config.state_class)} not allowed for ${deviceClass}`);
      }
      if (
        deviceClass === "energy" &&
        (config.unit_of_measurement !== "kWh" || config.state_class !== "total_increasing")
      ) {
        problems.push(`${message.topic}: energy must be kWh total_increasing`);
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("removes the retained configs an earlier run left for a device that is gone, and only those", async () => {
    await observer.waitFor((m) => m.topic === `${prefix}/sensor/gone0001/battery_soc/config` && m.payload === "");
    expect(observer.latest.get(`${prefix}/sensor/0xabc/temperature/config`)?.payload).not.toBe("");
    await observer.client.publishAsync(`${prefix}/sensor/0xabc/temperature/config`, "", { qos: 1, retain: true });
  });

  it("publishes each device's first state complete, after its discovery is known, with no partial state before", async () => {
    const states = observer.messages.filter((m) => m.topic === `${base}/${INVERTER}`);
    expect(states.length).toBeGreaterThan(0);
    const first = JSON.parse(states[0]?.payload ?? "{}") as Record<string, unknown>;
    const keys = new Set(Object.keys(first));
    const configs = [...observer.latest.values()].filter(
      (m) => m.topic.startsWith(`${prefix}/`) && m.topic.includes(`/${INVERTER}/`) && m.payload !== "",
    );
    const read = configs
      .map(
        (m) => (JSON.parse(m.payload) as { value_template?: string }).value_template?.match(/value_json\.(\w+)/)?.[1],
      )
      .filter((key): key is string => key !== undefined);
    expect(read.length).toBeGreaterThan(20);
    expect(read.filter((key) => !keys.has(key))).toEqual([]);
  });

  it("keeps what it fetches in the store, and fills the last days in the background", async () => {
    const reader = openStore(storePath);
    try {
      const countOf = (kind: string, device: string) =>
        reader.history.summary().find((row) => row.kind === kind && row.device === device)?.count ?? 0;
      const deadline = Date.now() + 20_000;
      // Yesterday and the day before come whole from the backfill: 2 x 288 points at least.
      while (countOf("inverter.point", "SD2024G001") < 2 * 288 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 200));
      expect(countOf("inverter.point", "SD2024G001")).toBeGreaterThanOrEqual(2 * 288);
      expect(countOf("flow.half_hour", "SD2024G001")).toBeGreaterThanOrEqual(2 * 48);
      expect(countOf("inverter.live", "SD2024G001")).toBeGreaterThan(0);
      expect(countOf("ems", "EM2024E001")).toBeGreaterThan(0);
      expect(countOf("battery.module", "SD2024G001")).toBeGreaterThan(0);
    } finally {
      reader.close();
    }
  });

  it("runs the tariff rules: a switch and a button per rule, and the prices, in Home Assistant", async () => {
    const node = `${base}_rules`;
    const config = await observer.waitFor(
      (m) => m.topic === `${prefix}/switch/${node}/enabled_new-year-note/config` && m.payload !== "",
    );
    const commandTopic = String((JSON.parse(config.payload) as { command_topic: string }).command_topic);
    await observer.waitFor((m) => m.topic === `${prefix}/button/${node}/run_new-year-note/config`);
    const price = await observer.waitFor(
      (m) => m.topic.startsWith(`${prefix}/sensor/${node}/`) && m.payload.includes("GBP/kWh"),
    );
    expect(JSON.parse(price.payload)).toMatchObject({ unit_of_measurement: "GBP/kWh", state_class: "measurement" });

    // Switched off from Home Assistant: the rule's state says so.
    await observer.publish(commandTopic, "OFF");
    await observer.waitFor((m) => m.topic === `${base}/rules` && m.payload.includes('"enabled_new-year-note":"OFF"'));
  });

  it("publishes live values to the device's state topic", async () => {
    const state = await observer.waitFor(
      (m) => m.topic === `${base}/${INVERTER}` && "battery_soc" in JSON.parse(m.payload),
    );
    const values = JSON.parse(state.payload) as Record<string, unknown>;
    expect(typeof values.battery_soc).toBe("number");
    expect(typeof values.solar_power).toBe("number");
    await observer.waitFor((m) => m.topic === `${base}/${INVERTER}/availability` && m.payload === "online");
  });

  it("turns a command into a verified change on the inverter, and the confirmed state comes back", async () => {
    const since = Date.now();
    await observer.publish(`${base}/${INVERTER}/set/battery_operating_range_reserve_percent`, "30");
    const result = await observer.waitFor((m) => m.topic === `${base}/${INVERTER}/result` && m.at >= since, 15_000);
    expect(JSON.parse(result.payload)).toMatchObject({ entity: "battery_operating_range_reserve_percent", ok: true });
    const owner = sim.clientFor("owner");
    expect(await owner.inverterControl.readSetting("SD2024G001", 71)).toMatchObject({ ok: true, value: 30 });
    await observer.waitFor(
      (m) => m.topic === `${base}/${INVERTER}` && JSON.parse(m.payload).battery_operating_range_reserve_percent === 30,
      15_000,
      since,
    );
    // The reserve setting's own entity follows the change made through the preset.
    await observer.waitFor(
      (m) => m.topic === `${base}/${INVERTER}` && JSON.parse(m.payload).setting_battery_reserve_percent_limit === 30,
      15_000,
      since,
    );
  });

  it("refuses an invalid command with a result saying what is allowed, and sends nothing", async () => {
    const since = Date.now();
    await observer.publish(`${base}/${INVERTER}/set/battery_operating_range_reserve_percent`, "3");
    const result = await observer.waitFor((m) => m.topic === `${base}/${INVERTER}/result` && m.at >= since);
    const body = JSON.parse(result.payload) as { ok: boolean; message: string };
    expect(body.ok).toBe(false);
    expect(body.message).toMatch(/4/);
    const owner = sim.clientFor("owner");
    expect(await owner.inverterControl.readSetting("SD2024G001", 71)).toMatchObject({ value: 30 });
    const unknown = Date.now();
    await observer.publish(`${base}/${INVERTER}/set/no_such_entity`, "1");
    const refused = await observer.waitFor((m) => m.topic === `${base}/${INVERTER}/result` && m.at >= unknown);
    expect(JSON.parse(refused.payload)).toMatchObject({ entity: "no_such_entity", ok: false });
  });

  it("answers a bridge action with its transaction", async () => {
    const since = Date.now();
    await observer.publish(
      `${base}/bridge/request/snapshot/exists`,
      JSON.stringify({ serial: "SD2024G001", name: "nope", transaction: "t1" }),
    );
    const response = await observer.waitFor(
      (m) => m.topic === `${base}/bridge/response/snapshot/exists` && m.at >= since,
    );
    expect(JSON.parse(response.payload)).toEqual({ status: "ok", data: { exists: false }, transaction: "t1" });
    const bad = Date.now();
    await observer.publish(
      `${base}/bridge/request/snapshot/take`,
      JSON.stringify({ serial: "SD2024G001", transaction: 2 }),
    );
    const error = await observer.waitFor((m) => m.topic === `${base}/bridge/response/snapshot/take` && m.at >= bad);
    expect(JSON.parse(error.payload)).toMatchObject({
      status: "error",
      transaction: 2,
      error: expect.stringContaining("name"),
    });
  });

  it("publishes discovery again when Home Assistant comes online", async () => {
    const since = Date.now();
    await observer.publish(`${prefix}/status`, "online");
    await observer.waitFor((m) => m.topic === `${prefix}/sensor/${INVERTER}/battery_soc/config` && m.at >= since);
  });

  it("marks a device unavailable while the cloud fails for it, and recovers by itself", async () => {
    await sim.admin("/devices/SD2024G001", { offline: true });
    const since = Date.now();
    await observer.waitFor(
      (m) => m.topic === `${base}/${INVERTER}/availability` && m.payload === "offline" && m.at >= since,
      15_000,
    );
    await sim.admin("/devices/SD2024G001", { offline: false });
    await observer.waitFor(
      (m) => m.topic === `${base}/${INVERTER}/availability` && m.payload === "online" && m.at >= since,
      20_000,
    );
  }, 40_000);

  it("survives a broker restart and publishes discovery and state again", async (context) => {
    // An external broker (MQTT_TEST_URL) cannot be restarted from here.
    if (!broker.restart) context.skip();
    await broker.restart?.();
    const since = Date.now();
    await observer.waitFor(
      (m) => m.topic === `${base}/bridge/state` && JSON.parse(m.payload).state === "online" && m.at >= since,
      20_000,
    );
    await observer.waitFor(
      (m) => m.topic === `${prefix}/sensor/${INVERTER}/battery_soc/config` && m.at >= since,
      20_000,
    );
  }, 40_000);

  it("discovers a new device and removes the discovery of one that left the account", async () => {
    const owner = sim.clientFor("owner");
    const [plug] = await owner.smartDevices.create({ serial_number: "PLUG-DAEMON-1", alias: "Garage plug" });
    const id = plug?.uuid.toLowerCase() ?? "";
    const topic = `${prefix}/sensor/${id}/power/config`;
    const added = await observer.waitFor((m) => m.topic === topic && m.payload !== "", 15_000);
    expect(JSON.parse(added.payload)).toMatchObject({ device: { name: expect.stringContaining("Garage plug") } });
    sim.simulator.world.smartDevices.delete(plug?.uuid ?? "");
    await observer.waitFor((m) => m.topic === topic && m.payload === "" && m.retain === false, 15_000, added.at);
  }, 40_000);

  it("stops within 2 seconds and leaves the bridge offline", async () => {
    const started = Date.now();
    await app.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    await observer.waitFor(
      (m) => m.topic === `${base}/bridge/state` && JSON.parse(m.payload).state === "offline",
      5000,
      started,
    );
  });
});
