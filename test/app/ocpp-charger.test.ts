import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { freePort, startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { MIDDAY, startTestSimulator } from "../helpers/simulator.js";

/*
 * Issue 37: the demo house's EV charger on the daemon's own OCPP central system, under
 * `source: auto`. The simulator's charger connects to it as a charge point (the same simulated
 * charger the cloud reports); once the cloud refuses every call (the subscription switch), the
 * charger's state still moves, over OCPP alone, under the same entities.
 */

const CHARGE_POINT = "EVC-DEMO";
const PASSWORD = "demo-secret-1";
type Json = Record<string, unknown>;

describe("the EV charger over OCPP, the cloud refusing", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let app: App | undefined;
  const dir = mkdtempSync(join(tmpdir(), "e2m-ocpp-"));
  const base = `e2mocpp${process.pid}`;
  const prefix = `haocpp${process.pid}`;
  let uuid = "";
  let serial = "";

  beforeAll(async () => {
    broker = await startTestBroker();
    const port = await freePort();
    sim = await startTestSimulator({
      start: MIDDAY,
      localPort: 0,
      localResponseDelayMs: 0,
      requestsPerMinute: 100_000,
      ocpp: {
        url: `ws://127.0.0.1:${port}`,
        chargePoints: [{ id: CHARGE_POINT, password: PASSWORD }],
        meterValueIntervalS: 10,
        backoff: { initialDelayMs: 100, maxDelayMs: 500 },
      },
    });
    const [charger] = await sim.clientFor("owner").evChargers.list().all();
    if (!charger) throw new Error("the demo house has no EV charger");
    uuid = charger.uuid;
    serial = charger.serial_number;
    const config = configSchema.parse({
      source: "auto",
      cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
      local: sim.simulator.dongles.map((dongle) => ({ host: "127.0.0.1", port: dongle.port })),
      ocpp: {
        enabled: true,
        port,
        charge_points: [{ id: CHARGE_POINT, password: PASSWORD, charger: serial }],
      },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
      poll: { inventory: "1h", ev_charger: "10s" },
      store: { path: join(dir, "e2m.db") },
      web: { enabled: false },
      log: { level: "silent" },
    });
    app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
      clock: new SimClock({ start: sim.simulator.clock.now() }),
    });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await sim?.stop();
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const stateOf = async (watcher: Awaited<ReturnType<typeof observe>>, match: (state: Json) => boolean) => {
    const topic = `${base}/${uuid.toLowerCase()}`;
    const found = await watcher.waitFor((m) => m.topic === topic && match(JSON.parse(m.payload) as Json), 30_000);
    return JSON.parse(found.payload) as Json;
  };

  it("keeps the charger's entities moving over OCPP once the cloud refuses every call", async () => {
    const watcher = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
    try {
      // The charge point has connected and the charger's twin over OCPP answers.
      await stateOf(watcher, (state) => state.online === "ON");
      const admin = await sim.admin("/ocpp", undefined, "GET");
      expect(JSON.stringify(admin)).toContain('"connected":true');

      await sim.admin("/subscription", { active: false });
      const since = Date.now();
      await sim.admin(`/ev-chargers/${uuid}/car`, { plugged: true, soc_percent: 40 });
      // Only OCPP can tell it now: the cloud answers every request as refused.
      const plugged = await watcher.waitFor((m) => {
        if (m.topic !== `${base}/${uuid.toLowerCase()}` || m.at < since) return false;
        return (JSON.parse(m.payload) as Json).status === "Preparing";
      }, 30_000);
      expect(JSON.parse(plugged.payload)).toMatchObject({ status: "Preparing", online: "ON" });
      // The same entities as over the cloud: the status sensor's discovery is the charger's own.
      const config = watcher.latest.get(`${prefix}/sensor/${uuid.toLowerCase()}/status/config`);
      expect(config?.payload).toContain(`"unique_id":"energy2mqtt_${uuid.toLowerCase()}_status"`);
    } finally {
      await watcher.close();
    }
  }, 90_000);
});
