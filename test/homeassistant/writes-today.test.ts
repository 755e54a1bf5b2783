import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlGate, WriteBudget } from "../../src/control/index.js";
import { Topics } from "../../src/homeassistant/topics.js";
import { cloudControl, type DeviceControl, discoverInventory, type Inventory } from "../../src/sources/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { startHomeAssistant, testBus } from "../helpers/home-assistant.js";
import { observe } from "../helpers/mqtt-observer.js";
import { startTestSimulator } from "../helpers/simulator.js";
import { baseTopic, ORIGIN } from "./rules-harness.js";

const INVERTER = "SD2024G001";
const ID = INVERTER.toLowerCase();
const RESERVE = "setting_battery_reserve_percent_limit";

const refuse = () => Promise.reject(new Error("the cloud's snapshots were asked for a device changed over the LAN"));

/**
 * A device changed over the LAN (the simulator's cloud control with pathOf local, its cloud
 * snapshots refusing, until the LAN control is merged) in Home Assistant, through a real bridge
 * on a real broker: its "Writes today", and the bridge's snapshots answered from the store.
 */
describe("Home Assistant: writes today and snapshots of a device changed over the LAN", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let store: Store;
  let dir: string;
  let bridge: Awaited<ReturnType<typeof startHomeAssistant>>;
  let observer: Awaited<ReturnType<typeof observe>>;
  let base: string;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ speed: 0 });
    dir = mkdtempSync(join(tmpdir(), "e2m-writes-today-"));
    store = openStore(join(dir, "energy2mqtt.db"));
    const client = sim.clientFor("owner");
    const inventory: Inventory = await discoverInventory(client);
    const logLines: string[] = [];
    const logger = pino({ level: "debug" }, { write: (line: string) => logLines.push(line) });
    const bus = testBus(logger);
    const clock = sim.simulator.clock;
    const gate = new ControlGate({
      clock,
      control: {
        ...cloudControl(client),
        cloudOnly: {
          ...cloudControl(client).cloudOnly,
          snapshots: { take: refuse, restore: refuse, delete: refuse, exists: refuse },
        },
        pathOf: () => "local",
      } satisfies DeviceControl,
      audit: store.audit,
      devices: {
        inverter: (serial) => inventory.inverters.find((found) => found.serial === serial),
        charger: (uuid) => inventory.evChargers.find((found) => found.uuid === uuid),
      },
      logger,
      onApplied: (event) => bus.emit("changeApplied", event),
      localSnapshots: store.localSnapshots,
      writeBudget: new WriteBudget({
        counts: store.writeCounts,
        limit: 100,
        clock,
        timeZone: () => inventory.timezone,
        logger,
      }),
    });
    base = baseTopic();
    observer = await observe(broker.url, [`${base}/#`, `${base}-ha/#`]);
    bridge = await startHomeAssistant({
      url: broker.url,
      topics: new Topics(base, `${base}-ha`),
      statusTopic: `${base}-ha/status`,
      discovery: true,
      origin: ORIGIN,
      client,
      gate,
      logger,
      inventory,
      bus,
    });
    const deadline = Date.now() + 10_000;
    while (!logLines.some((line) => line.includes('"published discovery and state"'))) {
      if (Date.now() > deadline) throw new Error("the bridge did not publish after connecting");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  afterAll(async () => {
    await bridge.stop();
    await observer.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
    await sim.stop();
    await broker.stop();
  });

  const stateOf = (payload: string) => JSON.parse(payload) as Record<string, unknown>;

  it("announces a diagnostic measurement sensor for the controllable inverter", async () => {
    const config = await observer.waitFor((m) => m.topic === `${base}-ha/sensor/${ID}/writes_today/config`);
    expect(JSON.parse(config.payload)).toMatchObject({
      name: "Writes today",
      state_class: "measurement",
      entity_category: "diagnostic",
      state_topic: `${base}/${ID}`,
    });
    expect(JSON.parse(config.payload)).not.toHaveProperty("device_class");
  });

  it("shows 0 before the first write, then counts each write a command sends", async () => {
    await observer.waitFor((m) => m.topic === `${base}/${ID}` && stateOf(m.payload).writes_today === 0);
    const read = await sim.clientFor("owner").inverterControl.readSetting(INVERTER, 71);
    const value = read.ok && read.value === 42 ? 43 : 42;
    const mark = observer.messages.length;
    await observer.publish(`${base}/${ID}/set/${RESERVE}`, String(value));
    const shown = await observer.waitFor(
      (m) =>
        observer.messages.indexOf(m) >= mark && m.topic === `${base}/${ID}` && stateOf(m.payload).writes_today === 1,
    );
    expect(stateOf(shown.payload)[RESERVE]).toBe(value);
  });

  /** Publishes a bridge request and returns its response. */
  async function request(action: string, payload: unknown): Promise<Record<string, unknown>> {
    const mark = observer.messages.length;
    await observer.publish(`${base}/bridge/request/${action}`, JSON.stringify(payload));
    const response = await observer.waitFor(
      (m) => observer.messages.indexOf(m) >= mark && m.topic === `${base}/bridge/response/${action}`,
    );
    return JSON.parse(response.payload) as Record<string, unknown>;
  }

  it("takes a snapshot in the store and answers exists from it, never from the cloud", async () => {
    const named = { serial: INVERTER, name: "ha-evening" };
    expect(await request("snapshot/exists", named)).toMatchObject({ status: "ok", data: { exists: false } });
    const taken = await request("snapshot/take", named);
    expect(taken).toMatchObject({ status: "ok" });
    expect(store.localSnapshots.get(INVERTER, "ha-evening")?.settings.length).toBeGreaterThan(10);
    expect(await request("snapshot/exists", named)).toMatchObject({ status: "ok", data: { exists: true } });
    expect(await sim.clientFor("owner").snapshots.exists(INVERTER, "ha-evening")).toBe(false);
    expect(await request("snapshot/delete", named)).toMatchObject({ status: "ok" });
    expect(await request("snapshot/exists", named)).toMatchObject({ status: "ok", data: { exists: false } });
  });
});
