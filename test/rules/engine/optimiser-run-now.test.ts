import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RulesEngine } from "../../../src/rules/engine/index.js";
import type { RunPreview } from "../../../src/rules-runtime/index.js";
import { type Env, HOUR, MINUTE, optimiseRules, startEnv } from "./helpers.js";

// 23:00 UTC on a winter Tuesday, when the fixture's Agile day begins: a day of known prices.
const START = Date.UTC(2025, 0, 14, 23, 0);
const END = START + 24 * HOUR;
const HALF_HOUR = 30 * MINUTE;
/** The fixture's Agile day with an export price that rarely pays: a day of charges and of self-use. */
const RULES = optimiseRules([]).map((line) =>
  line.replace("export: { type: fixed, price: 0.3 }", "export: { type: fixed, price: 0.04 }"),
);

/** Each half-hour of a day: the plan for it, and what run now would do then. */
interface Moment {
  readonly now: number;
  readonly plan: string | undefined;
  readonly open: boolean;
  readonly preview: RunPreview;
}

describe("run now on an optimise rule applies the plan's present half-hour, never its next window", () => {
  let env: Env;
  let runtime: RulesEngine;
  const moments: Moment[] = [];
  let selfUseRun: { ok: boolean; message: string; audited: number } | undefined;

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: RULES });
    const run = await env.startRuntime();
    runtime = run.runtime;
    await run.pushLive();
    for (let at = START + HALF_HOUR; at <= END; at += HALF_HOUR) {
      await run.advanceTo(at);
      const now = env.now();
      const status = runtime.list()[0];
      const open = status?.nextWindow !== undefined && status.nextWindow.start <= now && now < status.nextWindow.end;
      const preview = await runtime.previewRun("optimiser");
      moments.push({ now, plan: status?.planNow?.action, open, preview });
      if (!selfUseRun && status?.planNow?.action === "self-use" && !open) {
        const before = run.store.audit.recent({ limit: 1000 }).length;
        const result = await runtime.runNow("optimiser");
        selfUseRun = { ...result, audited: run.store.audit.recent({ limit: 1000 }).length - before };
      }
      await run.pushLive();
    }
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
    await env?.stop();
  });

  it("says the plan for the half-hour holding now, every half-hour of the day", () => {
    expect(moments.length).toBe(48);
    for (const moment of moments) expect(moment.preview.planNow?.action).toBe(moment.plan);
    // The day has both: half-hours in a window of the plan's, and half-hours of self-use.
    expect(moments.some((moment) => moment.plan === "self-use" && !moment.open)).toBe(true);
    expect(moments.some((moment) => moment.plan !== "self-use" && moment.open)).toBe(true);
  });

  it("previews nothing to send in a self-use half-hour, where the old run now moved the next window to now", () => {
    for (const moment of moments.filter((one) => one.plan === "self-use" && !one.open)) {
      expect(moment.preview.ok).toBe(false);
      expect(moment.preview.actions).toEqual([]);
      expect(moment.preview.window).toBeUndefined();
      expect(moment.preview.message).toContain("self-use (eco)");
    }
    expect(selfUseRun).toMatchObject({ ok: false, audited: 0 });
    expect(selfUseRun?.message).toContain("nothing would be sent");
  });

  it("previews the window holding now in a half-hour the plan acts in", () => {
    for (const moment of moments.filter((one) => one.plan !== "self-use" && one.open)) {
      expect(moment.preview.ok).toBe(true);
      expect(moment.preview.window?.start).toBeLessThanOrEqual(moment.now);
      expect(moment.preview.window?.end).toBeGreaterThan(moment.now);
      expect(moment.preview.actions.length).toBeGreaterThan(0);
    }
  });
});
