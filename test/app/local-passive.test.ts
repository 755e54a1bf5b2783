import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import type { SimDongle } from "../../src/simulator/local/dongle.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { MIDDAY, startTestSimulator } from "../helpers/simulator.js";
import { driven, openSession, readsOf } from "../simulator/local/read-dongle.js";

/*
 * A house where another client (the vendor's app, another integration) already polls the dongle:
 * the daemon, configured passive, only listens. The simulated house stands still at MIDDAY, the
 * other client reads every bank of the hybrid's dongle over and over on its own virtual clock,
 * and the dongle fans every answer out to every connection; the daemon must publish the
 * inverter's state from those answers without sending one request of its own.
 */

type Json = Record<string, unknown>;

describe("a passive daemon beside another client polling the dongle", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let dongle: SimDongle;
  let app: App;
  let other: ReturnType<typeof openSession>;
  let otherSocket: Socket | undefined;
  let polling = true;
  let otherLoop: Promise<void>;
  const dir = mkdtempSync(join(tmpdir(), "e2m-local-passive-"));
  const base = `e2m${process.pid}passive`;
  const prefix = `ha${process.pid}passive`;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
    const found = sim.simulator.local?.dongles.find((one) => one.chain.deviceSerial === "SD2024G001");
    if (!found) throw new Error("no dongle for SD2024G001");
    dongle = found;
    other = openSession(dongle.port, {
      connect: (port, host) => {
        otherSocket = createConnection({ port, host });
        return otherSocket;
      },
    });
    otherLoop = (async () => {
      while (polling) {
        for (const read of readsOf(dongle)) {
          if (!polling) return;
          await driven(other.clock, other.session.read(read));
        }
        // A breath between cycles, as a real poller leaves (and the two shared cores need).
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    app = await startApp(
      configSchema.parse({
        mqtt: { url: broker.url, base_topic: base },
        homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
        poll: { inventory: "1h", local: "1s" },
        store: { path: join(dir, "passive.db") },
        web: { enabled: false },
        log: { level: "silent" },
        source: "local",
        timezone: "Europe/London",
        local: [{ host: "127.0.0.1", port: dongle.port, passive: true }],
      }),
      createLogger(process.env.E2M_TEST_LOG ?? "silent"),
      "0.0.0-test",
      { clock: new SimClock({ start: MIDDAY }) },
    );
  }, 60_000);

  afterAll(async () => {
    polling = false;
    await otherLoop?.catch(() => undefined);
    other?.session.close();
    await app?.stop();
    await sim?.stop();
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("finds the inverter from the answers it overheard", () => {
    expect(app.inventory.inverters.map((inverter) => [inverter.serial, inverter.model])).toEqual([
      ["SD2024G001", "Hybrid Gen1"],
    ]);
  });

  it("publishes the inverter's live state, the values the cloud gives for the same instant", async () => {
    const watcher = await observe(broker.url, [`${base}/sd2024g001`]);
    let state: Json;
    try {
      const message = await watcher.waitFor((m) => {
        if (m.topic !== `${base}/sd2024g001` || m.payload === "") return false;
        return typeof (JSON.parse(m.payload) as Json).battery_soc === "number";
      }, 20_000);
      state = JSON.parse(message.payload) as Json;
    } finally {
      await watcher.close();
    }
    const cloud = await sim.clientFor("owner").inverterData.systemDataLatest("SD2024G001");
    expect(cloud.battery?.percent).toEqual(expect.any(Number));
    expect(state.battery_soc).toBe(cloud.battery?.percent);
    expect(state.solar_power).toBe(cloud.solar?.power);
    expect(state.grid_power).toBe(cloud.grid?.power);
  }, 30_000);

  it("never sent the dongle a request: every request it received came from the other client", () => {
    const otherPort = otherSocket?.localPort;
    expect(otherPort).toBeDefined();
    // Both connections are open: the daemon's listens, the other one asks.
    expect(dongle.clientCount).toBe(2);
    expect([...dongle.requestsByClientPort.keys()]).toEqual([otherPort]);
    expect(dongle.requestsByClientPort.get(otherPort ?? -1)).toBe(dongle.stats.requests);
    expect(dongle.stats.requests).toBeGreaterThan(0);
  });
});
