import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { openStore } from "../../src/store/index.js";
import { dayOf } from "../../src/time/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { MIDDAY, SIM_GAP_MS, startTestSimulator } from "../helpers/simulator.js";

/*
 * A daemon reading the house over the LAN takes the house's zone from `timezone:`, never from the
 * machine it runs on. At MIDDAY (12:00 UTC) every zone on Earth is on 16 or 17 November: of two
 * zones that straddle the date line the test configures the one whose day differs from the
 * machine's, so a daemon that fell back on the machine's zone fails it wherever it runs.
 */

const CANDIDATES = ["Pacific/Kiritimati", "Pacific/Pago_Pago"] as const;
const machineDay = dayOf(MIDDAY, new Intl.DateTimeFormat().resolvedOptions().timeZone);
const ZONE = CANDIDATES.find((zone) => dayOf(MIDDAY, zone) !== machineDay) ?? CANDIDATES[0];

describe("a daemon with source: local and a configured time zone", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let app: App;
  const dir = mkdtempSync(join(tmpdir(), "e2m-local-zone-"));
  const storePath = join(dir, "local.db");

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
    const hybrid = sim.simulator.dongles.find((dongle) => dongle.deviceSerial === "SD2024G001");
    if (!hybrid) throw new Error("no dongle for SD2024G001");
    const base = `e2m${process.pid}zone`;
    app = await startApp(
      configSchema.parse({
        mqtt: { url: broker.url, base_topic: base },
        homeassistant: { discovery_prefix: `ha${process.pid}zone`, status_topic: `ha${process.pid}zone/status` },
        poll: { inventory: "1h" },
        store: { path: storePath },
        web: { enabled: false },
        log: { level: "silent" },
        source: "local",
        timezone: ZONE,
        local: [{ host: "127.0.0.1", port: hybrid.port, gap_ms: SIM_GAP_MS }],
      }),
      createLogger(process.env.E2M_TEST_LOG ?? "silent"),
      "0.0.0-test",
      { clock: new SimClock({ start: MIDDAY }) },
    );
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await sim?.stop();
    await broker?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps the house in the configured zone, not the machine's", () => {
    expect(app.inventory.timezone).toBe(ZONE);
  });

  it("writes history rows whose local days are the configured zone's", async () => {
    const reader = openStore(storePath);
    try {
      const rows = () => [...reader.history.query({ kind: "inverter.point", device: "SD2024G001" })];
      const deadline = Date.now() + 10_000;
      while (rows().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const written = rows();
      expect(written.length).toBeGreaterThan(0);
      // The daemon's clock runs from MIDDAY in real time: a few seconds on, still the same day in both zones.
      const expected = dayOf(MIDDAY, ZONE);
      expect(expected).not.toBe(machineDay);
      for (const row of written) expect(dayOf(row.at, app.inventory.timezone)).toBe(expected);
    } finally {
      reader.close();
    }
  });
});
