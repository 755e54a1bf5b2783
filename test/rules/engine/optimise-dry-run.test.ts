import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RulesEngine } from "../../../src/rules/engine/index.js";
import { type Env, HOUR, INVERTER, MINUTE, optimiseRules, startEnv } from "./helpers.js";

const START = Date.UTC(2025, 0, 14, 23, 0);
const RULES = optimiseRules(["    dry_run: true"]);

describe("an optimise rule in dry run", () => {
  let env: Env;
  let runtime: RulesEngine;
  let run: Awaited<ReturnType<Env["startRuntime"]>>;
  let before: Record<string, unknown>;

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: RULES });
    before = await env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    run = await env.startRuntime();
    runtime = run.runtime;
    await run.pushLive();
    for (let at = START + 30 * MINUTE; at <= START + 8 * HOUR; at += 30 * MINUTE) {
      await run.advanceTo(at);
      await run.pushLive();
    }
  }, 60_000);

  afterAll(async () => {
    await runtime?.stop();
    await env?.stop();
  });

  it("says each preset it would write for the plan's windows, and writes nothing", async () => {
    const dry = run.events.filter((event) => event.type === "action" && event.status === "dry-run");
    expect(dry.some((event) => event.type === "action" && event.action.startsWith("preset timed-charge"))).toBe(true);
    expect(run.events.some((event) => event.type === "action" && event.status === "applied")).toBe(false);
    expect(await env.checker.inverterControl.presetValues(INVERTER, "timed-charge")).toEqual(before);
    expect(run.store.audit.recent({ limit: 50 })).toEqual([]);
  });
});
