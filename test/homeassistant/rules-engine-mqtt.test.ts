import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { startEnv } from "../rules/engine/helpers.js";
import { baseTopic, startBridge } from "./rules-harness.js";

const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

describe("the rules engine over MQTT", () => {
  let broker: TestBroker;
  beforeAll(async () => {
    broker = await startTestBroker();
  });
  afterAll(async () => {
    await broker.stop();
  });

  it("publishes on <base>/rules/event what the rules did while they started, before the bridge followed them", async () => {
    // A window open from the start: the engine opens it, and acts, inside startRules().
    const env = await startEnv({
      start: Date.parse("2025-01-14T16:00:00Z"),
      rules: [
        "timezone: Europe/London",
        "tariffs:",
        "  import: { type: fixed, price: 0.2 }",
        "rules:",
        "  - name: always-cheap",
        "    when: { price: { below: 0.5 } }",
        "    do:",
        '      - notify: { title: "Cheap power now", body: "window {{ window.start }}-{{ window.end }} is open", platforms: [persist] }',
      ],
    });
    const run = await env.startRuntime();
    const base = baseTopic();
    const harness = await startBridge(broker, base);
    try {
      expect(env.sim.simulator.world.notifications).toHaveLength(1);
      await harness.bridge.attachRules(run.runtime);
      const opened = await harness.observer.waitFor(
        (m) => m.topic === `${base}/rules/event` && json(m.payload).type === "window",
      );
      expect(json(opened.payload)).toMatchObject({ type: "window", phase: "open", rule: "always-cheap" });
      const applied = await harness.observer.waitFor(
        (m) => m.topic === `${base}/rules/event` && json(m.payload).status === "applied",
      );
      expect(json(applied.payload)).toMatchObject({
        type: "action",
        rule: "always-cheap",
        message: "notification sent",
      });
      // In the order they happened, each once.
      const published = harness.observer.messages
        .filter((m) => m.topic === `${base}/rules/event`)
        .map((m) => `${json(m.payload).type}:${json(m.payload).phase ?? json(m.payload).status}`);
      expect(published).toEqual(["window:open", "action:planned", "action:applied"]);
    } finally {
      await harness.stop();
      await run.runtime.stop();
      await env.stop();
    }
  });

  it("the run now button on a window rule outside its window opens one for the planned length, to be put back", async () => {
    const env = await startEnv({
      start: Date.parse("2025-01-14T16:00:00Z"),
      rules: [
        "timezone: Europe/London",
        "tariffs:",
        "  import: { type: zones, price: 0.3, zones: [{ hours: '00:30-04:30', price: 0.09 }] }",
        "rules:",
        "  - name: night",
        "    when: { price: { below: 0.1 } }",
        "    do:",
        "      - preset: timed-charge",
        '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 90 }] }',
      ],
    });
    const run = await env.startRuntime();
    const base = baseTopic();
    const harness = await startBridge(broker, base);
    try {
      await harness.bridge.attachRules(run.runtime);
      const mark = harness.observer.messages.length;
      await harness.observer.publish(`${base}/rules/set/run_night`, "PRESS");
      const result = await harness.seen(mark, (m) => m.topic === `${base}/rules/result`);
      expect(json(result.payload)).toMatchObject({ entity: "run_night", ok: true });
      const [promise] = run.store.ruleObligations.pending();
      // 16:00 now; the planned window is 00:30-04:30, four hours: the slot runs 16:00-20:00.
      expect(promise).toMatchObject({
        rule: "night",
        windowStart: Date.parse("2025-01-14T16:00:00Z"),
        windowEnd: Date.parse("2025-01-14T20:00:00Z"),
      });
      const values = await env.checker.inverterControl.presetValues("SD2024G001", "timed-charge");
      expect((values.slots as unknown[])[0]).toMatchObject({ start_time: "16:00", end_time: "20:00" });
      const opened = await harness.seen(
        mark,
        (m) => m.topic === `${base}/rules/event` && json(m.payload).type === "window",
      );
      expect(json(opened.payload)).toMatchObject({ phase: "open", rule: "night" });
    } finally {
      await harness.stop();
      await run.runtime.stop();
      await env.stop();
    }
  });
});
