import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleEvent, RuleStatus } from "../../src/rules-runtime/rules.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { baseTopic, FakeRuntime, ManualClock, retainedUnder, startBridge } from "./rules-harness.js";

const NOW = Date.parse("2026-01-15T12:10:00Z");
const RULES: RuleStatus[] = [
  { name: "overnight-top-up", enabled: true, dryRun: false, priority: 10 },
  { name: "cheap-grid", enabled: false, dryRun: false, priority: 0 },
];

let broker: TestBroker;
beforeAll(async () => {
  broker = await startTestBroker();
});
afterAll(async () => {
  await broker.stop();
});

async function setup() {
  const base = baseTopic();
  const clock = new ManualClock(NOW);
  const runtime = new FakeRuntime(structuredClone(RULES), () => ({ import: 0.25, export: 0.15 }), clock);
  const harness = await startBridge(broker, base);
  await harness.bridge.attachRules(runtime, { clock });
  await harness.observer.waitFor((m) => m.topic === `${base}/rules`);
  return { ...harness, runtime, base };
}

const json = (text: string): Record<string, unknown> => JSON.parse(text) as Record<string, unknown>;

describe("rules in Home Assistant: commands", () => {
  it("switches a rule off through setEnabled and publishes the new state", async () => {
    const { observer, runtime, base, seen, stop } = await setup();
    try {
      const mark = observer.messages.length;
      await observer.publish(`${base}/rules/set/enabled_overnight-top-up`, "OFF");
      const result = await seen(mark, (m) => m.topic === `${base}/rules/result`);
      expect(json(result.payload)).toEqual({
        entity: "enabled_overnight-top-up",
        ok: true,
        code: null,
        message: "overnight-top-up switched off",
      });
      expect(runtime.enabledCalls).toEqual([["overnight-top-up", false]]);
      const state = await seen(mark, (m) => m.topic === `${base}/rules`);
      expect(json(state.payload)).toMatchObject({
        "enabled_overnight-top-up": "OFF",
        "enabled_cheap-grid": "OFF",
        rules: { "overnight-top-up": { enabled: false } },
      });
    } finally {
      await stop();
    }
  });

  it("refuses a payload other than ON or OFF on the result topic, and changes nothing", async () => {
    const { observer, runtime, base, seen, flush, stop } = await setup();
    try {
      const mark = observer.messages.length;
      await observer.publish(`${base}/rules/set/enabled_cheap-grid`, "maybe");
      const result = await seen(mark, (m) => m.topic === `${base}/rules/result`);
      expect(json(result.payload)).toEqual({
        entity: "enabled_cheap-grid",
        ok: false,
        code: null,
        message: 'expected ON or OFF, got "maybe"',
      });
      await flush();
      expect(runtime.enabledCalls).toEqual([]);
      expect(observer.messages.slice(mark).filter((m) => m.topic === `${base}/rules`)).toEqual([]);
    } finally {
      await stop();
    }
  });

  it("refuses a command for a rule that does not exist", async () => {
    const { observer, runtime, base, seen, stop } = await setup();
    try {
      const mark = observer.messages.length;
      await observer.publish(`${base}/rules/set/enabled_no-such-rule`, "ON");
      const result = await seen(mark, (m) => m.topic === `${base}/rules/result`);
      expect(json(result.payload)).toEqual({
        entity: "enabled_no-such-rule",
        ok: false,
        code: null,
        message: 'no rule named "no-such-rule"; the rules are: overnight-top-up, cheap-grid',
      });
      expect(runtime.enabledCalls).toEqual([]);
    } finally {
      await stop();
    }
  });

  it("runs a rule when its button is pressed and publishes the run's result", async () => {
    const { observer, runtime, base, seen, stop } = await setup();
    try {
      runtime.runResult = (name) => ({
        name,
        ok: false,
        dryRun: false,
        message: "1 of 2 actions failed",
        actions: [
          { action: 'preset pause-battery {"mode":2}', ok: true, skipped: true, message: "the device had the value" },
          { action: 'charger change-mode {"mode":"Boost"}', ok: false, skipped: false, message: "no charger" },
        ],
      });
      const mark = observer.messages.length;
      await observer.publish(`${base}/rules/set/run_cheap-grid`, "PRESS");
      const result = await seen(mark, (m) => m.topic === `${base}/rules/result`);
      expect(runtime.runCalls).toEqual(["cheap-grid"]);
      expect(json(result.payload)).toEqual({
        entity: "run_cheap-grid",
        ok: false,
        code: null,
        message: "1 of 2 actions failed",
        run: runtime.runResult("cheap-grid"),
      });
    } finally {
      await stop();
    }
  });

  it("refuses a button payload other than PRESS without running the rule", async () => {
    const { observer, runtime, base, seen, stop } = await setup();
    try {
      const mark = observer.messages.length;
      await observer.publish(`${base}/rules/set/run_cheap-grid`, "ON");
      const result = await seen(mark, (m) => m.topic === `${base}/rules/result`);
      expect(json(result.payload)).toMatchObject({
        entity: "run_cheap-grid",
        ok: false,
        message: 'expected PRESS, got "ON"',
      });
      expect(runtime.runCalls).toEqual([]);
    } finally {
      await stop();
    }
  });

  it("answers a run that throws with an error result", async () => {
    const { observer, runtime, base, seen, stop } = await setup();
    try {
      runtime.runResult = () => {
        throw new Error("the rules are stopping");
      };
      const mark = observer.messages.length;
      await observer.publish(`${base}/rules/set/run_overnight-top-up`, "PRESS");
      const result = await seen(mark, (m) => m.topic === `${base}/rules/result`);
      expect(json(result.payload)).toEqual({
        entity: "run_overnight-top-up",
        ok: false,
        code: null,
        message: "the command failed: the rules are stopping",
      });
    } finally {
      await stop();
    }
  });
});

describe("rules in Home Assistant: events", () => {
  it("publishes every rule event as JSON, not retained, and logs conflicts as warnings", async () => {
    const { observer, runtime, base, seen, logs, stop } = await setup();
    try {
      const events: RuleEvent[] = [
        {
          type: "action",
          rule: "overnight-top-up",
          at: NOW,
          message: "timed-charge sent",
          status: "applied",
          action: 'preset timed-charge {"enabled":true}',
          dry_run: false,
          control: "preset:SA123:timed-charge",
        },
        {
          type: "conflict",
          rule: "cheap-grid",
          at: NOW + 1,
          message: "overnight-top-up (priority 10) holds preset:SA123:pause-battery",
          winner: "overnight-top-up",
          loser: "cheap-grid",
          control: "preset:SA123:pause-battery",
          action: 'preset pause-battery {"mode":2}',
        },
        {
          type: "window",
          rule: "overnight-top-up",
          at: NOW + 2,
          message: "window open",
          phase: "open",
          window: { start: NOW, end: NOW + 3_600_000 },
        },
      ];
      const mark = observer.messages.length;
      for (const event of events) runtime.events$.next(event);
      await seen(mark, (m) => m.topic === `${base}/rules/event` && json(m.payload).type === "window");
      const published = observer.messages.slice(mark).filter((m) => m.topic === `${base}/rules/event`);
      expect(published.map((m) => json(m.payload))).toEqual(events);
      expect((await retainedUnder(broker.url, `${base}/#`)).has(`${base}/rules/event`)).toBe(false);

      const warnings = logs().filter((line) => line.level === 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({
        msg: "rules conflict: overnight-top-up (priority 10) holds preset:SA123:pause-battery",
        winner: "overnight-top-up",
        loser: "cheap-grid",
        control: "preset:SA123:pause-battery",
      });
    } finally {
      await stop();
    }
  });

  it("answers run now before the rules are attached: starting while they load, none when there are none", async () => {
    const base = baseTopic();
    const harness = await startBridge(broker, base);
    const { observer, seen } = harness;
    const press = async (): Promise<Record<string, unknown>> => {
      const mark = observer.messages.length;
      await observer.publish(`${base}/rules/set/run_overnight-top-up`, "PRESS");
      return json((await seen(mark, (m) => m.topic === `${base}/rules/result`)).payload);
    };
    try {
      expect(await press()).toMatchObject({ ok: false, message: "no rules are loaded" });
      harness.bridge.rulesStarting(true);
      expect(await press()).toMatchObject({
        ok: false,
        message: "starting, try again in a few seconds: the rules are not loaded yet",
      });
      const clock = new ManualClock(NOW);
      const runtime = new FakeRuntime(structuredClone(RULES), () => ({ import: 0.25, export: 0.15 }), clock);
      await harness.bridge.attachRules(runtime, { clock });
      expect(await press()).toMatchObject({ ok: true, message: "1 action applied" });
      expect(runtime.runCalls).toEqual(["overnight-top-up"]);
    } finally {
      await harness.stop();
    }
  });
});
