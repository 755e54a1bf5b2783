import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";
import { DEMO_RULES } from "../web/demo.js";

/**
 * The demo daemon (no cloud configured: the embedded simulator's demo house) on a clock pinned to
 * a stated local instant, whatever the hour, date or zone of the machine running the test. The
 * house is in Europe/London, GMT in November, so these instants are its local time too.
 */
const AT_0200 = Date.parse("2026-11-16T02:00:00Z");
const AT_1300 = Date.parse("2026-11-16T13:00:00Z");
const INVERTER = "sd2024g001";

let broker: TestBroker;
beforeAll(async () => {
  broker = await startTestBroker();
}, 30_000);
afterAll(async () => {
  await broker?.stop();
});

interface Shown {
  readonly solarPower: number;
  readonly importPrice: number;
  /** The local day (YYYY-MM-DD) the next cheap window starts on. */
  readonly nextCheapDay: string;
  readonly clock: number;
  readonly storePath: string;
}

async function demoAt(start: number, index: number): Promise<Shown> {
  const dir = mkdtempSync(join(tmpdir(), "e2m-any-hour-"));
  writeFileSync(join(dir, "rules.yaml"), DEMO_RULES);
  const base = `anyhour${process.pid}x${index}`;
  const observer = await observe(broker.url, [`${base}/${INVERTER}`, `${base}/rules`]);
  const config = configSchema.parse({
    mqtt: { url: broker.url, base_topic: base },
    homeassistant: { discovery_prefix: `ha${base}` },
    store: { path: join(dir, "e2m.db") },
    rules: join(dir, "rules.yaml"),
    log: { level: "silent" },
  });
  const clock = new SimClock({ start, speed: 1 });
  let app: App | undefined;
  try {
    app = await startApp(config, createLogger("silent"), "0.0.0-test", { clock });
    expect(app.simulated).toBe(true);
    const state = await observer.waitFor((m) => m.topic === `${base}/${INVERTER}`, 20_000);
    const prices = await observer.waitFor((m) => m.topic === `${base}/rules`, 20_000);
    const rules = JSON.parse(prices.payload) as { import_price: number; next_cheap_window_start: string };
    return {
      solarPower: (JSON.parse(state.payload) as { solar_power: number }).solar_power,
      importPrice: rules.import_price,
      nextCheapDay: rules.next_cheap_window_start.slice(0, 10),
      clock: clock.now(),
      storePath: app.storePath,
    };
  } finally {
    await app?.stop();
    await observer.close();
  }
}

describe("the demo daemon at a pinned hour", () => {
  it("at 02:00 local: no solar, the night's cheap import price and window, its own demo store", async () => {
    const shown = await demoAt(AT_0200, 0);
    expect(shown.solarPower).toBe(0);
    expect(shown.importPrice).toBe(0.085);
    expect(shown.nextCheapDay).toBe("2026-11-16");
    expect(shown.storePath).toMatch(/demo\.db$/);
    expect(shown.clock - AT_0200).toBeLessThan(60_000);
  }, 60_000);

  it("at 13:00 local: the sun on the panels, the day's standard price, the cheap window tomorrow night", async () => {
    const shown = await demoAt(AT_1300, 1);
    expect(shown.solarPower).toBeGreaterThan(0);
    expect(shown.importPrice).toBe(0.27);
    expect(shown.nextCheapDay).toBe("2026-11-17");
  }, 60_000);
});
