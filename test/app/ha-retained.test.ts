import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { loadScenario } from "../../src/simulator/scenario/load.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { withoutRandomFaults } from "../helpers/calm-scenario.js";
import { type Observed, observe } from "../helpers/mqtt-observer.js";
import { NEW_YEAR_RULES_YAML } from "../helpers/new-year-rules.js";
import { SIM_GAP_MS, startTestSimulator } from "../helpers/simulator.js";

/**
 * What the daemon leaves retained for Home Assistant once started and quiet: every discovery
 * config and every state, on each built-in scenario over the cloud and on the demo house over the
 * LAN, the simulator's clock and the daemon's standing still at one instant. Each is compared byte
 * for byte with the dump in __retained__/, so a change that is meant to change nothing Home
 * Assistant sees (a refactor of the ports) shows any difference at once. A change that is meant to
 * change what it sees updates the dumps (`npx vitest run -u test/app/ha-retained.test.ts`) and
 * says why in its commit. `E2M_HA_RETAINED_DUMP=<dir>` also writes each as JSON there.
 */

/** The seven built-in houses (fleet:N is the demo house N times). */
const SCENARIOS = ["demo", "hybrid", "ac-coupled", "gateway", "aio", "three-phase", "plant-ems"] as const;

interface Retained {
  readonly topic: string;
  readonly payload: string;
}

let broker: TestBroker;
const dir = mkdtempSync(join(tmpdir(), "e2m-retained-"));

beforeAll(async () => {
  broker = await startTestBroker();
  writeFileSync(join(dir, "rules.yaml"), NEW_YEAR_RULES_YAML);
});

afterAll(async () => {
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts a daemon on a frozen simulator, waits until it is quiet, and returns what it left retained. */
async function retainedOf(name: string, path: "cloud" | "local", index: number): Promise<Retained[]> {
  const base = `e2mret${process.pid}n${index}`;
  const prefix = `haret${process.pid}n${index}`;
  const sim = await startTestSimulator({
    scenario: withoutRandomFaults(loadScenario(name)),
    requestsPerMinute: 100_000,
    speed: 0,
    ...(path === "local" ? { localPort: 0, localResponseDelayMs: 0 } : {}),
  });
  const reach =
    path === "cloud"
      ? { cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 } }
      : {
          source: "local",
          local: sim.simulator.dongles.map((dongle) => ({ host: "127.0.0.1", port: dongle.port, gap_ms: SIM_GAP_MS })),
        };
  const config = configSchema.parse({
    ...reach,
    mqtt: { url: broker.url, base_topic: base },
    homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
    store: { path: join(dir, `${index}.db`) },
    rules: join(dir, "rules.yaml"),
    web: { enabled: false },
    log: { level: "silent" },
  });
  const live = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
  const app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
    // Over the LAN the daemon's sessions pace themselves on its clock, which must run: it runs
    // from the simulator's instant, while the house itself stands still there.
    clock: path === "cloud" ? sim.simulator.clock : new SimClock({ start: sim.simulator.clock.now() }),
  });
  try {
    // The controls are read in the background after the announcement: wait until all is quiet.
    // The rules' state is published once the store has been read, the last of the start-up.
    await live.waitFor((m) => m.topic === `${base}/rules`, 30_000);
    for (let count = -1; count !== live.messages.length; await new Promise((r) => setTimeout(r, 2500)))
      count = live.messages.length;
  } finally {
    await live.close();
  }
  // The topics carry the process id: each run's own, so that two runs compare.
  // Over the LAN the daemon's clock runs while the simulator's stands still, so the drift read is
  // the seconds between the start and the clock's first read: 0 or 1 on an idle machine, up to
  // 15 on a loaded one. Within 30 s it is taken as 0 (the clock's tests measure drift itself).
  const anonymous = (text: string) => {
    const named = text.replaceAll(base, "BASE").replaceAll(prefix, "PREFIX");
    return path === "local"
      ? named
          .replace(/"started_at":"[^"]*"/, '"started_at":"STARTED"')
          .replaceAll(/"clock_drift":(-?\d+)(?=[,}])/g, (whole, seconds: string) =>
            Math.abs(Number(seconds)) <= 30 ? '"clock_drift":0' : whole,
          )
      : named;
  };
  const retained = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
  await new Promise((r) => setTimeout(r, 800));
  const kept = [...retained.latest.values()]
    .filter((m: Observed) => m.retain && m.payload !== "" && !m.topic.endsWith("/bridge/health"))
    .map((m) => ({ topic: anonymous(m.topic), payload: anonymous(m.payload) }))
    .sort((a, b) => (a.topic < b.topic ? -1 : 1));
  await retained.close();
  await app.stop();
  await sim.stop();
  return kept;
}

const RUNS = [...SCENARIOS.map((name) => ({ name, path: "cloud" as const })), { name: "demo", path: "local" as const }];

describe.each(RUNS.map((run, index) => ({ ...run, index })))("$name over the $path", ({ name, path, index }) => {
  it("leaves Home Assistant exactly the retained discovery and states it left before", async () => {
    const kept = await retainedOf(name, path, index);
    const dump = process.env.E2M_HA_RETAINED_DUMP;
    const file = `${name.replace(/[^a-z0-9-]/g, "-")}.${path}.json`;
    if (dump) writeFileSync(join(dump, file), `${JSON.stringify(kept, null, 1)}\n`);
    expect(kept.filter((m) => m.topic.endsWith("/config")).length).toBeGreaterThan(20);
    // One line per message: a difference names its topic.
    await expect(kept.map((m) => `${m.topic} ${m.payload}`).join("\n")).toMatchFileSnapshot(
      `__retained__/${file.replace(/\.json$/, ".txt")}`,
    );
  }, 90_000);
});
