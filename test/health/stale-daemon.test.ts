import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as wait } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { runHealthCommand } from "../../src/commands/health.js";
import { configSchema } from "../../src/config/index.js";
import { bridgeHealthSchema } from "../../src/health/bridge-payloads.js";
import { createLogger } from "../../src/log/log.js";
import type { LiveSnapshot } from "../../src/web/api-types.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { capture } from "../helpers/capture.js";
import { observe } from "../helpers/mqtt-observer.js";
import { startTestSimulator } from "../helpers/simulator.js";

/** A June morning in the simulator, whose manual clock is the daemon's one clock. */
const START = Date.UTC(2025, 5, 18, 9, 0, 0);
const MINUTE = 60_000;
const INVERTER = "sd2024g001";

/**
 * Issue 23, item 1, as a user sees it: the cloud's limit drops to 1 a minute, the polls wait on
 * the rate budget and never fail, and the values grow old. They must not be shown as live.
 */
describe("a device whose values grow old, with the daemon on the simulator and a real broker", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let app: App;
  let observer: Awaited<ReturnType<typeof observe>>;
  const dir = mkdtempSync(join(tmpdir(), "e2m-stale-"));
  const base = `e2ms${process.pid}`;
  const prefix = `has${process.pid}`;

  const clock = () => sim.simulator.clock;
  /** Moves the daemon's clock on in steps, letting each step's requests and messages finish. */
  const advance = async (ms: number): Promise<void> => {
    for (let done = 0; done < ms; done += 5_000) {
      await clock().advanceAsync(Math.min(5_000, ms - done), () => wait(15));
    }
    await wait(50);
  };
  const last = (topic: string) => observer.messages.filter((m) => m.topic === topic).at(-1)?.payload;
  const lastHealth = () => bridgeHealthSchema.parse(JSON.parse(last(`${base}/bridge/health`) ?? "{}"));
  const stateOf = (device: string) => JSON.parse(last(`${base}/${device}`) ?? "{}") as Record<string, unknown>;
  /** The web page's device list, as its Now page reads it. */
  const onPage = async (device: string) => {
    const now = (await (await fetch(new URL("api/now", app.webUrl))).json()) as LiveSnapshot;
    return now.devices.find((one) => one.id === device);
  };
  const health = async () => {
    const out = capture();
    const err = capture();
    const code = await runHealthCommand({ file: join(dir, "health.json") }, out.stream, err.stream, {}, () =>
      clock().now(),
    );
    return { code, out: out.text(), err: err.text() };
  };

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ speed: 0, start: START, requestsPerMinute: 300 });
    observer = await observe(broker.url, [`${base}/#`]);
    const config = configSchema.parse({
      cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 300 },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status`, stale_after: "4m" },
      store: { path: join(dir, "e2m.db") },
      web: { port: 0 },
      log: { level: "silent" },
    });
    app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
      clock: sim.simulator.clock,
    });
    await observer.waitFor((m) => m.topic === `${base}/${INVERTER}/availability` && m.payload === "online");
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await observer?.close();
    await sim?.stop();
    await broker?.stop();
  });

  it("is stale on bridge/health, in `health` (exit 1) and its diagnostic entity, then unavailable past stale_after, and back when values come", async () => {
    await advance(2 * MINUTE);
    expect(lastHealth().devices[INVERTER]).toMatchObject({ available: true, stale: false, poll_seconds: 60 });
    expect(stateOf(INVERTER).stale).toBe("OFF");
    expect((await health()).code).toBe(0);

    await sim.admin("/rate-limit", { requests_per_minute: 1 });
    // Within twice the poll interval of the last answer nothing is said.
    await advance(MINUTE);
    expect(lastHealth().devices[INVERTER]).toMatchObject({ stale: false });
    expect(last(`${base}/${INVERTER}/availability`)).toBe("online");

    // Past it (the last answer came at most a minute after the limit dropped): stale, still available.
    await advance(2 * MINUTE);
    const stale = lastHealth().devices[INVERTER];
    expect(stale).toMatchObject({ available: true, stale: true });
    expect(stale?.last_poll_age_seconds).toBeGreaterThan(120);
    expect(stateOf(INVERTER).stale).toBe("ON");
    expect(await onPage(INVERTER)).toMatchObject({ available: true, stale: true });
    const unhealthy = await health();
    expect(unhealthy.code).toBe(1);
    expect(unhealthy.err).toMatch(
      /Inverter SD2024G001 \(sd2024g001\) is stale: its last values are \d+s old, more than twice its 60s poll interval/,
    );
    expect(last(`${base}/${INVERTER}/availability`)).toBe("online");

    // Past homeassistant.stale_after (4 minutes): Home Assistant shows it unavailable.
    await advance(2 * MINUTE);
    expect(last(`${base}/${INVERTER}/availability`)).toBe("offline");
    await advance(MINUTE);
    expect(lastHealth().devices[INVERTER]).toMatchObject({ available: false, stale: true });

    // The cloud's limit is back: once the budget's probe is answered, fresh values, and online again.
    await sim.admin("/rate-limit", { requests_per_minute: 300 });
    for (let i = 0; i < 20 && last(`${base}/${INVERTER}/availability`) !== "online"; i++) await advance(MINUTE);
    expect(last(`${base}/${INVERTER}/availability`)).toBe("online");
    await advance(MINUTE);
    expect(lastHealth().devices[INVERTER]).toMatchObject({ available: true, stale: false });
    expect(stateOf(INVERTER).stale).toBe("OFF");
    expect(await onPage(INVERTER)).toMatchObject({ available: true, stale: false });
    expect((await health()).code).toBe(0);
  }, 120_000);
});
