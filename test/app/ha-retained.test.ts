import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app.js";
import { configSchema } from "../../src/config/index.js";
import { createLogger } from "../../src/log.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { type Observed, observe } from "../helpers/mqtt-observer.js";
import { startTestSimulator } from "../helpers/simulator.js";

/**
 * What the demo house leaves retained for Home Assistant once started and quiet: every discovery
 * config and every state, on a simulator whose clock stands still. `E2M_HA_RETAINED_DUMP=<file>`
 * writes it as JSON, to compare two versions of the daemon byte for byte.
 */
describe("the demo house's retained Home Assistant messages", () => {
  let broker: TestBroker;
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let app: App | undefined;
  const dir = mkdtempSync(join(tmpdir(), "e2m-retained-"));
  const base = `e2mret${process.pid}`;
  const prefix = `haret${process.pid}`;

  beforeAll(async () => {
    broker = await startTestBroker();
    sim = await startTestSimulator({ requestsPerMinute: 100_000, speed: 0 });
    writeFileSync(
      join(dir, "rules.yaml"),
      [
        "tariffs:",
        "  currency: GBP",
        "  import: { type: fixed, price: 0.25 }",
        "  export: { type: fixed, price: 0.15 }",
        "rules:",
        "  - name: new-year-note",
        '    when: { cron: "0 12 1 1 *" }',
        "    do:",
        '      - notify: { title: "Happy new year", body: "The house is running on its rules." }',
      ].join("\n"),
    );
    const config = configSchema.parse({
      cloud: { url: sim.simulator.url, token: sim.simulator.tokens.owner, requests_per_minute: 10_000 },
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: prefix, status_topic: `${prefix}/status` },
      store: { path: join(dir, "e2m.db") },
      rules: join(dir, "rules.yaml"),
      log: { level: "silent" },
    });
    app = await startApp(config, createLogger(process.env.E2M_TEST_LOG ?? "silent"), "0.0.0-test", {
      clock: sim.simulator.clock,
    });
  }, 60_000);

  afterAll(async () => {
    await app?.stop();
    await sim?.stop();
    await broker?.stop();
  });

  it("is complete and settles", async () => {
    const live = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
    // The controls are read in the background after the announcement: wait until all is quiet.
    for (let count = -1; count !== live.messages.length; await new Promise((r) => setTimeout(r, 1500)))
      count = live.messages.length;
    await live.close();
    // The topics carry the process id: each run's own, so that two runs compare.
    const anonymous = (text: string) => text.replaceAll(base, "BASE").replaceAll(prefix, "PREFIX");
    const retained = await observe(broker.url, [`${base}/#`, `${prefix}/#`]);
    await new Promise((r) => setTimeout(r, 800));
    const kept = [...retained.latest.values()]
      .filter((m: Observed) => m.retain && m.payload !== "" && !m.topic.endsWith("/bridge/health"))
      .map((m) => ({ topic: anonymous(m.topic), payload: anonymous(m.payload) }))
      .sort((a, b) => (a.topic < b.topic ? -1 : 1));
    await retained.close();
    const dump = process.env.E2M_HA_RETAINED_DUMP;
    if (dump) writeFileSync(dump, `${JSON.stringify(kept, null, 1)}\n`);
    expect(kept.filter((m) => m.topic.endsWith("/config")).length).toBeGreaterThan(100);
    expect(kept.some((m) => m.topic === "BASE/sd2024g001")).toBe(true);
  }, 60_000);
});
