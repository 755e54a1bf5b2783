import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, startApp } from "../../src/app/index.js";
import { configSchema } from "../../src/config/index.js";
import { DEMO_RULES_FILE } from "../../src/demo/rules.js";
import { createLogger } from "../../src/log/log.js";
import { SimClock } from "../../src/simulator/clock.js";
import { openStore } from "../../src/store/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { observe } from "../helpers/mqtt-observer.js";

/**
 * Monday 16 November 2026, 00:29:50 in the demo house's zone (GMT): ten seconds before the demo
 * tariff's cheap night starts, where the optimiser plans to charge.
 */
const BEFORE_CHEAP_NIGHT = Date.parse("2026-11-16T00:29:50Z");

let broker: TestBroker;
beforeAll(async () => {
  broker = await startTestBroker();
}, 30_000);
afterAll(async () => {
  await broker?.stop();
});

/** The part of a rule event (`<base>/rules/event`) the test reads. */
interface RuleEvent {
  readonly rule: string;
  readonly type: string;
  readonly status?: string;
  readonly dry_run?: boolean;
  readonly action?: string;
}

describe("the demo daemon on the embedded defaults", () => {
  it("runs the demo's rules in dry run: the optimiser plans with a reason, acts in dry run, and writes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "e2m-demo-rules-"));
    const base = `demorules${process.pid}`;
    const observer = await observe(broker.url, [`${base}/rules`, `${base}/rules/event`]);
    // Nothing but where to publish and where the store goes: no cloud, no rules file.
    const config = configSchema.parse({
      mqtt: { url: broker.url, base_topic: base },
      homeassistant: { discovery_prefix: `ha${base}` },
      store: { path: join(dir, "e2m.db") },
      log: { level: "silent" },
      web: { enabled: false },
    });
    let app: App | undefined;
    try {
      app = await startApp(config, createLogger("silent"), "0.0.0-test", {
        clock: new SimClock({ start: BEFORE_CHEAP_NIGHT, speed: 1 }),
      });
      expect(app.simulated).toBe(true);
      expect(app.demoRules).toBe(DEMO_RULES_FILE);
      const state = await observer.waitFor(
        (m) => m.topic === `${base}/rules` && (JSON.parse(m.payload) as { rules?: object }).rules !== undefined,
        20_000,
      );
      const rules = (JSON.parse(state.payload) as { rules: Record<string, { dry_run: boolean; plan_reason: unknown }> })
        .rules;
      expect(Object.keys(rules)).toContain("optimiser");
      expect(Object.values(rules).every((rule) => rule.dry_run)).toBe(true);
      expect(rules.optimiser?.plan_reason).toEqual(expect.any(String));

      // 00:30: the optimiser's charge window opens, and says what it would send.
      const event = await observer.waitFor((m) => {
        if (m.topic !== `${base}/rules/event`) return false;
        const one = JSON.parse(m.payload) as RuleEvent;
        return one.rule === "optimiser" && one.type === "action";
      }, 40_000);
      const action = JSON.parse(event.payload) as RuleEvent;
      expect(action.status).toBe("dry-run");
      expect(action.dry_run).toBe(true);
      expect(action.action).toMatch(/timed-charge/);
    } finally {
      await app?.stop();
      await observer.close();
    }
    // Not one change reached the simulated house.
    const store = openStore(join(dir, "demo.db"));
    try {
      expect(store.audit.recent({ limit: 1000 }).filter((entry) => entry.ok && !entry.skipped)).toEqual([]);
    } finally {
      store.close();
    }
  }, 90_000);
});
