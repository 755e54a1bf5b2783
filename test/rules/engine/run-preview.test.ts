import { afterEach, describe, expect, it } from "vitest";
import { type Env, INVERTER, type Run, startEnv } from "./helpers.js";

const START = Date.parse("2025-01-14T16:00Z");
const RULES = [
  "timezone: Europe/London",
  "tariffs:",
  "  import: { type: agile, file: agile.json }",
  "rules:",
  "  - name: cheap",
  "    when: { price: { below: 0.11 } }",
  "    do:",
  "      - preset: timed-charge",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 80 }] }',
  "  - name: cheap-first",
  "    priority: 10",
  "    when: { price: { below: 0.11 } }",
  "    do:",
  "      - preset: timed-charge",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 100 }] }',
  "  - name: manual",
  "    when: { cron: '0 3 * * *' }",
  "    if: { battery_soc_below: 1, days: [mon, tue, wed, thu, fri, sat, sun] }",
  "    do: [{ preset: eco-mode, with: { enabled: false } }]",
];

describe("run now, said before it is done: previewRun, runNow respecting conditions, dryRunNow", () => {
  let env: Env | undefined;
  const runs: Run[] = [];
  afterEach(async () => {
    for (const run of runs.splice(0)) await run.runtime.stop();
    await env?.stop();
    env = undefined;
  });
  const start = async () => {
    env = await startEnv({ start: START, rules: RULES });
    const run = await env.startRuntime();
    runs.push(run);
    return { env, run };
  };

  it("previews the actions in words, the device, the window and each condition, sending and recording nothing", async () => {
    const { env, run } = await start();
    const eco = () => env.checker.inverterControl.presetValues(INVERTER, "eco-mode");
    const events = run.events.length;
    const manual = await run.runtime.previewRun("manual");
    expect(manual).toMatchObject({ name: "manual", ok: true, dryRun: false, conditionsHold: false });
    expect(manual.window).toBeUndefined();
    expect(manual.actions).toEqual([
      {
        action: expect.stringMatching(/^preset eco-mode/),
        words: `Eco mode off on inverter ${INVERTER}`,
        device: INVERTER,
      },
    ]);
    expect(manual.conditions).toEqual([
      // The house's battery is well above 1 %.
      { text: "battery SoC below 1%", now: expect.stringMatching(/^it is \d+(\.\d)?%$/), holds: false },
      { text: "on mon, tue, wed, thu, fri, sat, sun", now: "it is tue", holds: true },
    ]);
    const cheap = await run.runtime.previewRun("cheap");
    expect(cheap.ok).toBe(true);
    expect(cheap.conditions).toEqual([]);
    expect(cheap.conditionsHold).toBe(true);
    // A window from now, as long as the next planned one; the slot in words is that window's.
    const window = cheap.window;
    if (!window) throw new Error("no window");
    expect(window.start).toBe(env.now());
    expect(window.end).toBeGreaterThan(window.start);
    expect(cheap.actions[0]?.words).toMatch(
      new RegExp(`^Timed charge to 80% \\d\\d:\\d\\d–\\d\\d:\\d\\d on inverter ${INVERTER}$`),
    );
    expect((await eco()).enabled).toBe(true);
    expect(run.store.audit.recent({ limit: 10 })).toEqual([]);
    expect(run.events.length).toBe(events);
  });

  it("respects the rule's conditions when asked to, and runs despite them when not", async () => {
    const { env, run } = await start();
    const eco = () => env.checker.inverterControl.presetValues(INVERTER, "eco-mode");
    const refused = await run.runtime.runNow("manual", { respectConditions: true });
    expect(refused).toMatchObject({ ok: false, actions: [] });
    expect(refused.message).toMatch(/^not run: its condition does not hold \(.+\); nothing was sent$/);
    expect((await eco()).enabled).toBe(true);
    expect(run.store.audit.recent({ limit: 10 })).toEqual([]);
    const overridden = await run.runtime.runNow("manual", { respectConditions: false });
    expect(overridden.ok).toBe(true);
    expect((await eco()).enabled).toBe(false);
  });

  it("records a dry run as rule events with status dry-run, sending nothing", async () => {
    const { env, run } = await start();
    const preview = await run.runtime.dryRunNow("manual");
    expect(preview.actions).toHaveLength(1);
    expect(run.events).toContainEqual(
      expect.objectContaining({
        type: "action",
        rule: "manual",
        status: "dry-run",
        dry_run: true,
        message: `dry run from the web page: would send Eco mode off on inverter ${INVERTER}`,
      }),
    );
    expect((await env.checker.inverterControl.presetValues(INVERTER, "eco-mode")).enabled).toBe(true);
    expect(run.store.audit.recent({ limit: 10 })).toEqual([]);
  });

  it("says when another rule holds the control: the run would not send it", async () => {
    const { run } = await start();
    expect((await run.runtime.previewRun("cheap")).actions[0]?.conflict).toBeUndefined();
    expect((await run.runtime.runNow("cheap-first")).ok).toBe(true);
    const preview = await run.runtime.previewRun("cheap");
    expect(preview.actions[0]?.conflict).toMatch(
      /^not sent: rule cheap-first \(priority 10\) holds it until \d\d:\d\d$/,
    );
    await run.runtime.dryRunNow("cheap");
    expect(run.events).toContainEqual(
      expect.objectContaining({
        status: "dry-run",
        rule: "cheap",
        message: expect.stringContaining("(not sent: rule cheap-first (priority 10) holds it until"),
      }),
    );
  });
});
