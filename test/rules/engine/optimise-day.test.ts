import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleEvent, RulesEngine } from "../../../src/rules/engine/index.js";
import { DEFAULT_WRITE_BUDGET, type Env, HOUR, INVERTER, MINUTE, optimiseRules, startEnv } from "./helpers.js";

// 23:00 UTC on a winter Tuesday, when the fixture's Agile day begins: a day of known prices.
const START = Date.UTC(2025, 0, 14, 23, 0);
const END = START + 24 * HOUR;
const PRESETS = ["timed-charge", "timed-export", "pause-battery"] as const;
const RULES = optimiseRules([]);

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
type WindowEvent = Extract<RuleEvent, { type: "window" }>;

describe("an optimise rule runs a day: the presets follow the plan through the gate and are put back", () => {
  let env: Env;
  let runtime: RulesEngine;
  let run: Awaited<ReturnType<Env["startRuntime"]>>;
  const before: Record<string, Record<string, unknown>> = {};
  const seen: { mode: string; window: { start: number; end: number }; values: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: RULES });
    for (const preset of PRESETS) before[preset] = await env.checker.inverterControl.presetValues(INVERTER, preset);
    run = await env.startRuntime();
    runtime = run.runtime;
    await run.pushLive();
    for (let at = START + 30 * MINUTE; at <= END; at += 30 * MINUTE) {
      await run.advanceTo(at, async () => {
        const window = runtime.list()[0]?.nextWindow;
        const now = env.now();
        if (!window || window.start > now || window.end <= now) return;
        const opened = run.events
          .filter((event): event is WindowEvent => event.type === "window" && event.phase === "open")
          .at(-1);
        const mode = /grid charge|hold|export/.exec(opened?.message ?? "")?.[0] ?? "";
        const preset = mode === "grid charge" ? "timed-charge" : mode === "export" ? "timed-export" : "pause-battery";
        seen.push({ mode, window, values: await env.checker.inverterControl.presetValues(INVERTER, preset) });
      });
      await run.pushLive();
    }
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
    await env?.stop();
  });

  it("charges from the grid in the night's cheap half-hours and exports when the fixed export price pays", () => {
    const opened = run.events.filter(
      (event): event is WindowEvent => event.type === "window" && event.phase === "open",
    );
    const labels = opened.map((event) => event.message);
    expect(labels.some((label) => label.includes("grid charge"))).toBe(true);
    expect(labels.some((label) => label.includes("export"))).toBe(true);
    // A charge comes before the export it pays for.
    const firstCharge = opened.find((event) => event.message.includes("grid charge"));
    const firstExport = opened.find((event) => event.message.includes("export"));
    expect(firstCharge && firstExport && firstCharge.window.start < firstExport.window.start).toBe(true);
  });

  it("holds each window's preset on the inverter, its slot the window's and its limit the plan's target", () => {
    const timed = seen.filter((observed) => observed.mode === "grid charge" || observed.mode === "export");
    expect(timed.length).toBeGreaterThan(0);
    for (const observed of timed) {
      expect(observed.values.enabled).toBe(true);
      const slot = (observed.values.slots as Record<string, unknown>[])[0];
      expect(slot).toMatchObject({
        start_time: expect.stringMatching(new RegExp(`^${hhmm(observed.window.start)}`)),
        end_time: expect.stringMatching(new RegExp(`^${hhmm(observed.window.end)}`)),
      });
      expect(Number(slot?.percent_limit)).toBeGreaterThanOrEqual(10);
      expect(Number(slot?.percent_limit)).toBeLessThanOrEqual(100);
    }
  });

  it("writes every change through the gate, as the rule's, in the audit log", () => {
    const rows = run.store.audit.recent({ limit: 500 });
    expect(rows.some((row) => row.action.includes("timed-charge"))).toBe(true);
    expect(rows.every((row) => row.source === "rule" && row.requesterName === "optimiser")).toBe(true);
  });

  it("fits a day of the optimiser in the default daily write budget, below its 80% warning", () => {
    // 23:00 to 23:00 UTC: the last hour of one London day and most of the next. Measured when the
    // default was chosen: 4 + 228 values (each window sets a preset's slot and puts it back); with
    // re-planning inside windows 8 + 172 (a window the new plan carries on is not put back and set
    // again; a new target or a later end writes those values only).
    const days = ["2025-01-14", "2025-01-15"].map((day) => run.store.writeCounts.get(INVERTER, day));
    expect(days.reduce((sum, day) => sum + day.writes, 0)).toBeGreaterThan(100);
    for (const day of days) {
      expect(day.writes).toBeLessThan(DEFAULT_WRITE_BUDGET * 0.8);
      expect(day.warned).toBe(false);
    }
    expect(run.store.audit.recent({ limit: 5000 }).filter((row) => row.message.includes("write_budget"))).toEqual([]);
  });

  it("re-plans open windows, writing only when a window opens, is re-planned or closes", () => {
    const windowTimes = new Set(run.events.filter((event) => event.type === "window").map((event) => event.at));
    expect(run.events.some((event) => event.type === "window" && event.phase === "replan")).toBe(true);
    const rows = run.store.audit.recent({ limit: 5000 });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(windowTimes.has(Math.floor(row.at / (30 * MINUTE)) * 30 * MINUTE)).toBe(true);
  });

  it("puts every preset back as it was, keeping no open promise", async () => {
    const restores = run.events.filter((event) => event.type === "restore");
    expect(restores.length).toBeGreaterThan(0);
    expect(restores.every((event) => event.type === "restore" && event.ok)).toBe(true);
    for (const preset of PRESETS)
      expect(await env.checker.inverterControl.presetValues(INVERTER, preset)).toEqual(before[preset]);
    expect(run.store.ruleObligations.pending()).toEqual([]);
  });
});
