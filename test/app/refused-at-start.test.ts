import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, StartupError, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { bridgeHealthSchema } from "../../src/health/bridge-payloads.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { MIDDAY, SIM_GAP_MS, startTestSimulator } from "../helpers/simulator.js";

/*
 * A daemon whose cloud refuses it from its first request (the simulator's subscription switch):
 * with the cloud alone it stops, saying which cause is likelier; with dongles and source: auto
 * it carries on over the LAN and says so.
 */
describe("a daemon the cloud refuses from the start", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  const dir = mkdtempSync(join(tmpdir(), "e2m-refused-"));
  const logger = createLogger(process.env.E2M_TEST_LOG ?? "silent");
  const configOf = (name: string, extra: Record<string, unknown> = {}) =>
    configSchema.parse({
      cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
      mqtt: { url: broker.url, base_topic: `e2m${process.pid}${name}` },
      homeassistant: { discovery_prefix: `ha${process.pid}${name}`, status_topic: `ha${process.pid}${name}/status` },
      poll: { inventory: "1h" },
      store: { path: join(dir, `${name}.db`) },
      web: { enabled: false },
      log: { level: "silent" },
      ...extra,
    });

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
    await sim.admin("/subscription", { active: false });
  }, 30_000);

  afterAll(async () => {
    await sim?.stop();
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses source: auto without a cloud (exit 2), saying what to set, and starts no demo house", async () => {
    const config = configOf("autonocloud", {
      cloud: {},
      source: "auto",
      local: [{ host: "127.0.0.1", port: sim.simulator.dongles[0]?.port ?? 1, gap_ms: SIM_GAP_MS }],
    });
    const started = startApp(config, logger, "0.0.0-test", { clock: new SimClock({ start: MIDDAY }) });
    await expect(started).rejects.toMatchObject({ exitCode: 2 });
    await expect(started).rejects.toThrow(/source: auto .* needs the cloud too: set cloud.url and cloud.token/);
  });

  it("stops with the cloud alone (exit 2), naming both causes and the token as likelier for a token never seen", async () => {
    const started = startApp(configOf("cloudonly"), logger, "0.0.0-test", { clock: new SimClock({ start: MIDDAY }) });
    await expect(started).rejects.toBeInstanceOf(StartupError);
    await expect(started).rejects.toMatchObject({ exitCode: 2 });
    await expect(started).rejects.toThrow(
      /the token is wrong or the account lacks the vendor's API subscription \(required since May 2026\) \(401\)\. This token was refused the first time it was used: a wrong or mistyped token is likelier/,
    );
  });

  it("carries on over the LAN with source: auto when the cloud is away at start", async () => {
    const config = configOf("autoaway", {
      cloud: { url: "http://127.0.0.1:1/v1", token: "any", timeout: "1s" },
      source: "auto",
      local: sim.simulator.dongles.map((dongle) => ({ host: "127.0.0.1", port: dongle.port, gap_ms: SIM_GAP_MS })),
    });
    const app = await startApp(config, logger, "0.0.0-test", { clock: new SimClock({ start: MIDDAY }) });
    try {
      expect(app.inventory.inverters.map((i) => i.serial)).toContain("SD2024G001");
      expect(app.inventory.evChargers).toEqual([]);
    } finally {
      await app.stop();
    }
  }, 60_000);

  describe("with the dongles and source: auto", () => {
    let app: App;
    let observer: Awaited<ReturnType<typeof observe>>;
    const base = `e2m${process.pid}autorefused`;

    beforeAll(async () => {
      observer = await observe(broker.url, [`${base}/#`]);
      app = await startApp(
        configOf("autorefused", {
          source: "auto",
          local: sim.simulator.dongles.map((dongle) => ({ host: "127.0.0.1", port: dongle.port, gap_ms: SIM_GAP_MS })),
        }),
        logger,
        "0.0.0-test",
        { clock: new SimClock({ start: MIDDAY }) },
      );
    }, 60_000);

    afterAll(async () => {
      await app?.stop();
      await observer?.close();
    });

    it("carries on with the dongles' devices, read over the LAN", async () => {
      expect(app.inventory.inverters.map((i) => i.serial).sort()).toEqual(["SD2024G001", "SE2024G101", "SE2024G102"]);
      expect(app.inventory.evChargers).toEqual([]);
      const state = await observer.waitFor(
        (m) =>
          m.topic === `${base}/sd2024g001` && m.payload.includes("battery_soc") && m.payload.includes('"path":"local"'),
        20_000,
      );
      expect(JSON.parse(state.payload)).toMatchObject({ battery_soc: expect.any(Number), path: "local" });
    });

    it("says on bridge/health that the cloud refuses it, which cause is likelier, and what carries on", async () => {
      const message = await observer.waitFor(
        (m) => m.topic === `${base}/bridge/health` && m.payload.includes('"refused":{'),
        20_000,
      );
      const health = bridgeHealthSchema.parse(JSON.parse(message.payload));
      expect(health.cloud.refused).toMatchObject({
        status: 401,
        likelier: "token",
        carrying_on: expect.stringContaining("carries on over the LAN"),
      });
      // What it says of changes is what happens to one (issue 35: it said they waited for the cloud).
      expect(health.cloud.refused?.carrying_on).toContain(
        "changes to the inverters' settings and presets go over their dongles",
      );
      expect(health.cloud.refused?.carrying_on).not.toContain("changes wait");
      expect(health.cloud_connection).toBe("OFF");
      expect(health.devices.sd2024g001?.path?.path).toBe("local");
    });

    it("applies a change over the LAN while the cloud refuses it, as carrying_on says", async () => {
      const dongle = sim.simulator.local?.find("SD2024G001");
      if (!dongle) throw new Error("no dongle for SD2024G001");
      const writes = dongle.writesReceived.length;
      const result = `${base}/sd2024g001/result`;
      const published = Date.now();
      await observer.publish(`${base}/sd2024g001/set/battery_operating_range_reserve_percent`, "21");
      const answer = JSON.parse((await observer.waitFor((m) => m.topic === result, 20_000, published)).payload);
      expect(answer).toMatchObject({ ok: true });
      expect(dongle.writesReceived.slice(writes).map((write) => [write.register, write.value])).toEqual([[110, 21]]);
    }, 30_000);
  });
});
