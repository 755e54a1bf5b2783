import { afterEach, describe, expect, it } from "vitest";
import { loadRules, RulesError } from "../../../src/rules/file/load.js";
import { rulesFile } from "../helpers.js";
import { type Env, INVERTER, startEnv } from "./helpers.js";

const START = Date.UTC(2025, 0, 14, 16, 0);
const MORNING = Date.UTC(2025, 0, 15, 9, 0);

const cheapRule = (name: string, priority: number, limit: number, extra: string[] = []) => [
  `  - name: ${name}`,
  `    priority: ${priority}`,
  "    when: { price: { below: 0.11 } }",
  ...extra,
  "    do:",
  "      - preset: timed-charge",
  `        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: ${limit} }] }`,
];
const header = ["timezone: Europe/London", "tariffs:", "  import: { type: agile, file: agile.json }", "rules:"];

describe("rule safety on the simulator", () => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.stop();
    env = undefined;
  });

  it("a runtime killed mid-window restores on its next start", async () => {
    env = await startEnv({ start: START, rules: [...header, ...cheapRule("cheap", 0, 80)] });
    const before = await env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    const first = await env.startRuntime();
    const window = first.runtime.list()[0]?.nextWindow;
    expect(window).toBeDefined();
    if (!window) return;
    await first.advanceTo(window.start + 60_000);
    expect(await env.checker.inverterControl.presetValues(INVERTER, "timed-charge")).not.toEqual(before);
    expect(first.store.ruleObligations.pending()).toHaveLength(1);
    const [promise] = first.store.ruleObligations.pending();
    // Killed: never stopped, its timers never run again. Time passes beyond the night's windows.
    env.sim.simulator.clock.advance(MORNING - env.now());
    const second = await env.startRuntime();
    expect(await env.checker.inverterControl.presetValues(INVERTER, "timed-charge")).toEqual(before);
    expect(second.store.ruleObligations.pending()).toEqual([]);
    expect(second.store.ruleObligations.get(promise?.id ?? -1)).toMatchObject({ status: "restored" });
    await second.runtime.stop();
  });

  it("a runtime restarted inside the window resumes it and restores at its end", async () => {
    env = await startEnv({ start: START, rules: [...header, ...cheapRule("cheap", 0, 80)] });
    const before = await env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    const first = await env.startRuntime();
    const window = first.runtime.list()[0]?.nextWindow;
    if (!window) throw new Error("no window planned");
    await first.advanceTo(window.start + 60_000);
    const second = await env.startRuntime();
    expect(await env.checker.inverterControl.presetValues(INVERTER, "timed-charge")).not.toEqual(before);
    await second.advanceTo(window.end + 60_000);
    expect(await env.checker.inverterControl.presetValues(INVERTER, "timed-charge")).toEqual(before);
    expect(second.events.some((event) => event.type === "restore" && event.ok)).toBe(true);
    await second.runtime.stop();
  });

  it("dry run writes nothing: the simulator and the audit log are unchanged, the intent is published", async () => {
    env = await startEnv({ start: START, rules: [...header, ...cheapRule("cheap", 0, 80)], dryRun: true });
    const before = await env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    const run = await env.startRuntime();
    await run.advanceTo(MORNING);
    const intents = run.events.filter((event) => event.type === "action");
    expect(intents.length).toBeGreaterThan(0);
    expect(intents.every((event) => event.type === "action" && event.status === "dry-run" && event.dry_run)).toBe(true);
    expect(await env.checker.inverterControl.presetValues(INVERTER, "timed-charge")).toEqual(before);
    expect(run.store.audit.recent({ limit: 10 })).toEqual([]);
    expect(env.requests.filter((endpoint) => /Snapshot|Modify/.test(endpoint))).toEqual([]);
    expect(run.runtime.list()[0]).toMatchObject({ dryRun: true, lastRun: { ok: true } });
    await run.runtime.stop();
  });

  it("two rules on one control: the higher priority wins, the loser is not sent and the conflict is reported", async () => {
    env = await startEnv({
      start: START,
      rules: [...header, ...cheapRule("low", 1, 60), ...cheapRule("high", 10, 95)],
    });
    const run = await env.startRuntime();
    const window = run.runtime.list()[0]?.nextWindow;
    if (!window) throw new Error("no window planned");
    await run.advanceTo(window.start + 60_000);
    const values = await env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    expect((values.slots as { percent_limit: number }[])[0]?.percent_limit).toBe(95);
    expect(run.events.filter((event) => event.type === "conflict")).toEqual([
      expect.objectContaining({ winner: "high", loser: "low", control: `preset:${INVERTER}:timed-charge` }),
    ]);
    const writers = run.store.audit.recent({ limit: 100 }).map((row) => row.requesterName);
    expect(writers).not.toContain("low");
    await run.runtime.stop();
  });

  it("the values the rule changes are recorded per control, never a whole-inverter snapshot, so a token without the snapshot scopes works too", async () => {
    env = await startEnv({ start: START, rules: [...header, ...cheapRule("cheap", 0, 80)], actor: "nosnap" });
    const before = await env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    const run = await env.startRuntime();
    const window = run.runtime.list()[0]?.nextWindow;
    if (!window) throw new Error("no window planned");
    await run.advanceTo(window.start + 60_000);
    const [obligation] = run.store.ruleObligations.pending();
    expect(obligation?.restore.snapshots).toEqual([]);
    expect(obligation?.restore.controls).toEqual([
      expect.objectContaining({ before: expect.objectContaining({ kind: "preset", preset: "timed-charge" }) }),
    ]);
    await run.advanceTo(window.end + 60_000);
    expect(run.events.filter((event) => event.type === "restore")).toEqual([
      expect.objectContaining({ ok: true, method: "local" }),
    ]);
    expect(await env.checker.inverterControl.presetValues(INVERTER, "timed-charge")).toEqual(before);
    await run.runtime.stop();
  });

  it("a bad rules file is refused with its line, before anything starts", () => {
    const file = rulesFile([
      "rules:",
      "  - name: Bad Name",
      "    when: { cron: '0 1 * * *' }",
      "    do: [{ notify: 1 }]",
    ]);
    expect(() => loadRules(file)).toThrow(RulesError);
    try {
      loadRules(file);
    } catch (error) {
      expect((error as RulesError).problems.some((problem) => /rules\.yaml:2:/.test(problem))).toBe(true);
    }
  });
});
