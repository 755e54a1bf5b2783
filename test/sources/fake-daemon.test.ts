import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
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
    // A window rule on the fake's reserve: run now opens a window as long as the planned one
    // (the cheap hour) and the rule's promise puts the reserve back at its end.
    writeFileSync(
      join(dir, "rules.yaml"),
      [
        "timezone: UTC",
        "tariffs:",
        "  import: { type: zones, price: 0.3, zones: [{ hours: '02:00-03:00', price: 0.09 }] }",
        "rules:",
        "  - name: cheap-reserve",
        "    when: { price: { below: 0.1 } }",
        "    do: [{ setting: 71, value: 80 }]",
      ].join("\n"),
    );
    const config = configSchema.parse({
      cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
      poll: { inverter: "1s", inventory: "1h" },
      store: { path: join(dir, "e2m.db") },
      rules: join(dir, "rules.yaml"),
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

  it("runs a rule's window on the fake and puts the reserve back at its end, through the same gate", async () => {
    const start = house.settings.get(RESERVE);
    const since = Date.now();
    await observer.publish(`${base}/rules/set/run_cheap-reserve`, "PRESS");
    const ran = await observer.waitFor((m) => m.topic === `${base}/rules/result` && m.at >= since, 15_000);
    expect(JSON.parse(ran.payload)).toMatchObject({ ok: true });
    expect(house.settings.get(RESERVE)).toBe(80);
    // The window lasts as long as the planned cheap hour: move the house's clock past its end.
    await sim.admin("/clock", { advance_ms: 61 * 60_000 });
    await observer.waitFor(
      (m) => m.topic === `${base}/rules/event` && m.at >= since && JSON.parse(m.payload).type === "restore",
      15_000,
    );
    expect(house.settings.get(RESERVE)).toBe(start);
    expect(house.calls.writes.slice(-2).map((write) => write.value)).toEqual([80, start]);
  }, 30_000);
});
