import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { startTestSimulator } from "../helpers/simulator.js";
import { FAKE_SERIAL, type FakeHouse, fakeHouse, RESERVE } from "./fake.js";

const DEVICE = FAKE_SERIAL.toLowerCase();

/**
 * The daemon started on the in-memory path (startApp's `sources`): its devices, states and a
 * command from Home Assistant come from and go to the fake, not the cloud. The simulator is only
 * there for what has not moved to the ports yet (the token check, the bridge's own client).
 */
describe("the daemon on an in-memory DeviceSource and DeviceControl", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let app: App;
  let observer: Awaited<ReturnType<typeof observe>>;
  let house: FakeHouse;
  const dir = mkdtempSync(join(tmpdir(), "e2m-fake-daemon-"));
  const base = `e2mfake${process.pid}`;
  const prefix = `hafake${process.pid}`;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ requestsPerMinute: 100_000 });
    observer = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
    house = fakeHouse();
    const config = configSchema.parse({
      cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
      poll: { inverter: "1s", inventory: "1h" },
      store: { path: join(dir, "e2m.db") },
      log: { level: "silent" },
    });
    app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
      clock: sim.simulator.clock,
      sources: { source: house.source, control: house.control },
    });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await observer?.close();
    await sim?.stop();
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("announces the fake's inverter and publishes its state from what the fake fetched", async () => {
    expect(app.inventory.inverters.map((inverter) => inverter.serial)).toEqual([FAKE_SERIAL]);
    await observer.waitFor((m) => m.topic === `${prefix}/sensor/${DEVICE}/battery_soc/config`, 15_000);
    await observer.waitFor((m) => m.topic === `${base}/${DEVICE}` && JSON.parse(m.payload).battery_soc === 55, 15_000);
    expect(house.calls.discoveries).toBe(1);
  });

  it("writes a command from Home Assistant once through the fake's DeviceControl", async () => {
    const since = Date.now();
    const before = house.calls.writes.length;
    await observer.publish(`${base}/${DEVICE}/set/setting_battery_reserve_percent_limit`, "25");
    const result = await observer.waitFor((m) => m.topic === `${base}/${DEVICE}/result` && m.at >= since, 15_000);
    expect(JSON.parse(result.payload)).toMatchObject({ entity: "setting_battery_reserve_percent_limit", ok: true });
    expect(house.calls.writes.slice(before)).toEqual([{ serial: FAKE_SERIAL, settingId: RESERVE, value: 25 }]);
    expect(house.settings.get(RESERVE)).toBe(25);
  });
});
