import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mqttClient from "mqtt";
import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EventBus } from "../../src/bus/event-bus.js";
import type { CloudClient } from "../../src/cloud/client.js";
import { inverterDataPoint } from "../../src/cloud/schemas/inverter-data.js";
import { ControlGate, cloudDeviceReads } from "../../src/control/index.js";
import { type Mqtt, mqttFeature } from "../../src/mqtt/index.js";
import { rulesFeature } from "../../src/rules/feature.js";
import { loadRules } from "../../src/rules/index.js";
import type { RuleEvent, RulesRuntime } from "../../src/rules-runtime/rules.js";
import { chargerStatusValues } from "../../src/sources/cloud/ev-readings.js";
import { inverterPointsOf } from "../../src/sources/cloud/history-items.js";
import { counterValuesOf, liveValuesOf } from "../../src/sources/cloud/readings.js";
import type { Inventory } from "../../src/sources/index.js";
import { cloudControl } from "../../src/sources/index.js";
import { type HistoryRecord, openStore, type Store } from "../../src/store/index.js";
import { systemClock } from "../../src/time/index.js";
import { chargerDevice, inverterDevice } from "../control/helpers/devices.js";
import { startTestBroker } from "../helpers/broker.js";
import { startTestSimulator } from "../helpers/simulator.js";
import { CHARGER, INVERTER } from "./engine/helpers.js";
import { fixture } from "./forecasts/helpers.js";
import { knownDays } from "./savings-days.js";

const START = Date.UTC(2025, 0, 14, 12, 0);

const notify = (title: string) =>
  `    do: [{ notify: { title: "${title} ({{ rule.name }})", body: "sent by the rule at {{ now.date }} {{ now.time }}", platforms: [persist] } }]`;

const RULES = [
  "timezone: Europe/London",
  "tariffs:",
  "  import: { type: fixed, price: 0.25 }",
  "rules:",
  "  - name: low-battery",
  "    when: { battery_soc_below: 50 }",
  notify("Battery is low"),
  "  - name: car-charging",
  "    when: { ev_status: Charging }",
  notify("The car charges"),
];

describe("the rules feature on the bus", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(
    options: {
      readonly withStore?: boolean;
      readonly history?: HistoryRecord[];
      readonly rules?: readonly string[];
      /** Records what the feature subscribes, in place of a connection. */
      readonly subscribe?: (filter: string) => Promise<void>;
      /** A broker for the daemon's MQTT connection, on the feature's bus. */
      readonly brokerUrl?: string;
    } = {},
  ) {
    const sim = await startTestSimulator({ speed: 0, start: START });
    cleanups.push(() => sim.stop());
    const dir = mkdtempSync(join(tmpdir(), "e2m-rules-feature-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, "rules.yaml"), `${(options.rules ?? RULES).join("\n")}\n`);
    const requests: string[] = [];
    const client: CloudClient = sim.clientFor("owner", { onRequest: (event) => requests.push(event.endpoint) });
    const checker = sim.clientFor("owner");
    const inverter = await inverterDevice(checker, INVERTER);
    const charger = await chargerDevice(checker, CHARGER);
    // The charger is not on the account's list yet: it comes with a later read of the lists.
    const first: Inventory = {
      account: await checker.account.get(),
      timezone: "Europe/London",
      inverters: [inverter],
      ems: [],
      evChargers: [],
      smartDevices: [],
      sites: [],
    };
    // The gate always has its audit log; the rules get the store only when the test says so.
    const opened = openStore(join(dir, "energy2mqtt.db"));
    cleanups.push(() => opened.close());
    if (options.history) opened.history.write(options.history);
    const store: Store | undefined = options.withStore === false ? undefined : opened;
    const logs: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => logs.push(line) });
    const gate = new ControlGate({
      control: cloudControl(client),
      audit: opened.audit,
      devices: { inverter: (serial) => (serial === INVERTER ? inverter : undefined), charger: () => charger },
      logger,
      clock: sim.simulator.clock,
    });
    const failures: unknown[] = [];
    const bus = new EventBus(({ error }) => failures.push(error));
    const events: RuleEvent[] = [];
    bus.on("ruleEvent", "test", (event) => {
      events.push(event);
    });
    const started: RulesRuntime[] = [];
    bus.on("rulesStarted", "test", ({ runtime }) => {
      started.push(runtime);
    });
    let mqtt: Mqtt | undefined;
    if (options.brokerUrl) {
      const connection = mqttFeature({
        bus,
        url: options.brokerUrl,
        stateTopic: "e2m-feature/bridge/state",
        logger,
        clock: systemClock,
        stopMs: 500,
      });
      await connection.start();
      cleanups.push(() => connection.stop());
      mqtt = connection;
    }
    const feature = rulesFeature({
      bus,
      loaded: loadRules(join(dir, "rules.yaml")),
      gate,
      reads: cloudDeviceReads(cloudControl(client)),
      store,
      inventory: first,
      logger,
      clock: sim.simulator.clock,
      dryRun: false,
      ...(mqtt ? { mqtt } : options.subscribe ? { mqtt: { subscribe: options.subscribe } } : {}),
    });
    cleanups.push(() => feature.stop());
    const baseLive = await checker.inverterData.systemDataLatest(INVERTER);
    const baseCharger = await checker.evChargers.get(CHARGER);
    /** Telemetry's inverter answer on the bus, with this SoC. */
    const fetchedSoc = (soc: number) =>
      bus.emit("fetched", {
        kind: "inverter.live",
        serial: INVERTER,
        at: sim.simulator.clock.now(),
        measuredAt: undefined,
        values: liveValuesOf({ ...baseLive, battery: { ...baseLive.battery, percent: soc } }),
      });
    const chargerStatus = (status: string) =>
      bus.emit("fetched", {
        kind: "ev.status",
        uuid: CHARGER,
        at: sim.simulator.clock.now(),
        values: chargerStatusValues({ ...baseCharger, status }),
      });
    const runs = (rule: string) =>
      events.filter((event) => event.type === "action" && event.rule === rule && event.status === "applied").length;
    return {
      sim,
      bus,
      feature,
      first,
      charger,
      requests,
      logs,
      failures,
      started,
      fetchedSoc,
      chargerStatus,
      runs,
    };
  }

  it("plans only once telemetry's first round is in, knowing what came before it, and never asks the cloud for the SoC", async () => {
    const env = await setUp();
    await env.feature.start();
    env.fetchedSoc(60);
    await Promise.resolve();
    expect(env.feature.runtime).toBeUndefined();
    expect(env.started).toEqual([]);

    env.bus.emit("firstRound", { at: env.sim.simulator.clock.now() });
    const runtime = await env.feature.started;
    expect(runtime).toBeDefined();
    expect(env.feature.runtime).toBe(runtime);
    expect(env.started).toEqual([runtime]);
    // The SoC of 60 before the start set where the trigger stands: falling to 40 crosses it.
    env.fetchedSoc(40);
    await vi.waitFor(() => expect(env.runs("low-battery")).toBe(1));
    expect(env.sim.simulator.world.notifications.map((n) => n.title)).toEqual(["Battery is low (low-battery)"]);
    expect(env.requests.filter((endpoint) => endpoint.includes("system-data"))).toEqual([]);
    expect(env.failures).toEqual([]);
  });

  it("takes a car's target from its MQTT topic, and a bad payload is logged and leaves the last good one", async () => {
    const topic = "homeassistant/number/car_target_kwh/state";
    const subscribed: string[] = [];
    const env = await setUp({
      rules: [
        "timezone: Europe/London",
        "battery: { capacity_kwh: 9.5, charge_kw: 3 }",
        "ev: { charge_kw: 7 }",
        "tariffs:",
        "  import: { type: fixed, price: 0.25 }",
        "rules:",
        "  - name: optimiser",
        `    when: { optimise: { car: { by: "07:30", target_topic: ${topic} } } }`,
      ],
      subscribe: async (filter) => {
        subscribed.push(filter);
      },
    });
    await env.feature.start();
    expect(subscribed).toEqual([topic]);
    env.bus.emit("mqttMessage", { topic, payload: "10.5" });
    env.bus.emit("mqttMessage", { topic, payload: "unavailable" });
    env.bus.emit("inventoryChanged", { inventory: { ...env.first, evChargers: [env.charger] }, devicesChanged: true });
    env.chargerStatus("Preparing");
    env.fetchedSoc(50);
    env.bus.emit("firstRound", { at: env.sim.simulator.clock.now() });
    const runtime = await env.feature.started;
    expect(
      env.logs.some((line) => line.includes(`car target on ${topic} ignored`) && line.includes("keeping 10.5")),
    ).toBe(true);
    // 10.5 kWh at 7 kW is three half-hours; at one flat price the plan takes the last three before 07:30.
    expect(runtime?.list()[0]?.nextWindow).toEqual({
      start: Date.UTC(2025, 0, 15, 6, 0),
      end: Date.UTC(2025, 0, 15, 7, 30),
      readable: ["Charger: start charging"],
    });
    expect(env.failures).toEqual([]);
  });

  it("keeps today's cost from telemetry's grid counters and says when it changed", async () => {
    const env = await setUp();
    await env.feature.start();
    env.bus.emit("firstRound", { at: env.sim.simulator.clock.now() });
    const runtime = await env.feature.started;
    const changed: number[] = [];
    env.bus.on("rulesChanged", "test", () => {
      changed.push(1);
    });
    const at = env.sim.simulator.clock.now();
    const points = (offset: number, gridImport: number) => {
      const latest = inverterDataPoint.parse({
        time: new Date(at + offset).toISOString(),
        power: {},
        today: { grid: { import: gridImport, export: 0 } },
        total: {},
      });
      const counters = counterValuesOf(latest);
      env.bus.emit("fetched", {
        kind: "inverter.points",
        serial: INVERTER,
        at: at + offset,
        points: inverterPointsOf([latest], "UTC"),
        counters,
      });
    };
    points(0, 2);
    expect(runtime?.todayCost(at)).toEqual({ cost: 0, since: at });
    points(60_000, 3);
    // 1 kWh more at the fixed 25p.
    expect(runtime?.todayCost(at + 60_000)?.cost).toBeCloseTo(0.25, 10);
    expect(changed).toHaveLength(2);
  });

  it("reports yesterday's and this month's savings from the store it keeps", async () => {
    // Yesterday (13 January 2025) is the known day of savings-days.ts; today has no complete data yet.
    const env = await setUp({ history: knownDays(1, Date.UTC(2025, 0, 13)) });
    await env.feature.start();
    env.bus.emit("firstRound", { at: env.sim.simulator.clock.now() });
    const runtime = await env.feature.started;
    const savings = runtime?.savings?.(env.sim.simulator.clock.now());
    // One flat import price (25p) and no export tariff: shifting the night's import saves nothing
    // against no battery, and eco only, which would have stored the 8 kWh of solar the house
    // exported for nothing, would have cost less than what the house did.
    expect(savings?.yesterday?.since).toBe(Date.UTC(2025, 0, 13));
    expect(savings?.yesterday?.vsNoBattery).toBeCloseTo(0, 9);
    expect(savings?.yesterday?.vsEcoOnly).toBeLessThan(-1);
    expect(savings?.month?.since).toBe(Date.UTC(2025, 0, 1));
    expect(savings?.month?.vsEcoOnly).toBeCloseTo(savings?.yesterday?.vsEcoOnly ?? 0, 9);
  });

  it("follows the device lists on the bus: a charger that comes later is watched", async () => {
    const env = await setUp();
    await env.feature.start();
    env.bus.emit("firstRound", { at: env.sim.simulator.clock.now() });
    await env.feature.started;
    // Not on the list it started with: its status is not the rules' business yet.
    env.chargerStatus("Available");
    env.chargerStatus("Charging");
    env.chargerStatus("Available");
    env.bus.emit("inventoryChanged", {
      inventory: { ...env.first, evChargers: [env.charger] },
      devicesChanged: true,
    });
    env.chargerStatus("Available");
    await Promise.resolve();
    expect(env.runs("car-charging")).toBe(0);
    env.chargerStatus("Charging");
    await vi.waitFor(() => expect(env.runs("car-charging")).toBe(1));
    expect(env.runs("low-battery")).toBe(0);
  });

  it("does not run without the store, and says why; stopped before the first round, it never starts", async () => {
    const withoutStore = await setUp({ withStore: false });
    await withoutStore.feature.start();
    expect(await withoutStore.feature.started).toBeUndefined();
    expect(withoutStore.logs.join("")).toContain("they need the store to keep their promise to restore");

    const stoppedEarly = await setUp();
    await stoppedEarly.feature.start();
    await stoppedEarly.feature.stop();
    expect(await stoppedEarly.feature.started).toBeUndefined();
    stoppedEarly.bus.emit("firstRound", { at: stoppedEarly.sim.simulator.clock.now() });
    await Promise.resolve();
    expect(stoppedEarly.feature.runtime).toBeUndefined();
    expect(stoppedEarly.started).toEqual([]);
  });
  it("hears a solar forecast Home Assistant publishes on MQTT, the retained one from before it started too", async () => {
    const broker = await startTestBroker();
    cleanups.push(() => broker.stop());
    const topic = "homeassistant/sensor/solcast_pv_forecast_forecast_today/detailedForecast";
    const publisher = await mqttClient.connectAsync(broker.url, { clientId: `ha-feature-${process.pid}` });
    cleanups.push(async () => {
      await publisher.endAsync();
    });
    await publisher.publishAsync(topic, fixture("ha-solcast-detailed-forecast.json"), { retain: true, qos: 1 });
    const rules = [
      ...RULES.slice(0, 3),
      "solar_forecast:",
      "  provider: home-assistant-mqtt",
      `  topics: [${topic}]`,
      ...RULES.slice(3),
    ];
    const env = await setUp({ rules, brokerUrl: broker.url });
    // The retained forecast comes before the rules run: it is kept for them.
    const retained = new Promise<void>((resolve) =>
      env.bus.on("mqttMessage", "test-retained", (message) => {
        if (message.topic === topic) resolve();
      }),
    );
    await env.feature.start();
    await retained;
    env.bus.emit("firstRound", { at: env.sim.simulator.clock.now() });
    await env.feature.started;
    await vi.waitFor(() => expect(env.logs.join("")).toContain("home-assistant-mqtt: 46 half-hours forecast"));
    await publisher.publishAsync(topic, '"unavailable"', { qos: 1 });
    await vi.waitFor(() =>
      expect(env.logs.join("")).toContain(
        `solar forecast payload not used (the last good forecast is kept): home-assistant-mqtt: ${topic}: not a forecast sensor's state or attributes`,
      ),
    );
    expect(env.failures).toEqual([]);
  });
});
