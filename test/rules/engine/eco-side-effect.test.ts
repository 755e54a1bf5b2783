import { afterEach, describe, expect, it } from "vitest";
import { FULL_POWER_FLAG } from "../../../src/control/index.js";
import type { RuleEvent } from "../../../src/rules/engine/index.js";
import { type Env, INVERTER, startEnv } from "./helpers.js";

/*
 * api-reference, inverter flags: on an inverter without full-power-discharge-in-eco-mode,
 * switching timed-export on switches Eco mode off. A rule's window that exports must put Eco mode
 * back at its end, as the rule's restore, though the rule never wrote it: else the battery sits
 * idle after the window instead of covering the house.
 */

// A January morning: Europe/London is UTC. The window is the cheap half-hour, 08:00-08:30.
const START = Date.UTC(2025, 0, 15, 7, 50);
const at = (hour: number, minute: number) => Date.UTC(2025, 0, 15, hour, minute);
const RULES = [
  "timezone: Europe/London",
  "tariffs:",
  "  import:",
  "    type: zones",
  "    price: 0.2",
  '    zones: [{ hours: "08:00-08:30", price: 0.05 }]',
  "rules:",
  "  - name: export-cheap",
  "    when: { price: { below: 0.1 } }",
  "    do:",
  "      - preset: timed-export",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}" }] }',
];

const restoresOf = (events: readonly RuleEvent[]) =>
  events.filter((event) => event.type === "restore" && event.rule === "export-cheap");

describe("a window's timed-export and Eco mode", () => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.stop();
    env = undefined;
  });
  const eco = async () => (await env?.checker.inverterControl.presetValues(INVERTER, "eco-mode"))?.enabled;
  const exporting = async () => (await env?.checker.inverterControl.presetValues(INVERTER, "timed-export"))?.enabled;
  const ecoRows = (run: Awaited<ReturnType<Env["startRuntime"]>>) =>
    run.store.audit
      .recent({ limit: 100 })
      .filter((row) => row.action === "preset:eco-mode")
      .map((row) => ({ source: row.source, requesterName: row.requesterName, request: row.request, ok: row.ok }));

  it("without full-power-discharge-in-eco-mode: Eco mode, switched off by the export, is back on after the window, as the rule's restore", async () => {
    env = await startEnv({ start: START, rules: RULES, inverterFlags: ["is-controllable"] });
    expect(await eco()).toBe(true);
    const run = await env.startRuntime();

    await run.advanceTo(at(8, 5));
    expect(await exporting()).toBe(true);
    // The simulated cloud switched Eco mode off with the export; the rule never wrote it.
    expect(await eco()).toBe(false);
    expect(ecoRows(run)).toEqual([]);

    await run.advanceTo(at(8, 31));
    expect(await exporting()).toBe(false);
    expect(await eco()).toBe(true);
    expect(ecoRows(run)).toEqual([
      {
        source: "rule",
        requesterName: "export-cheap",
        request: { kind: "preset", serial: INVERTER, preset: "eco-mode", fields: { enabled: true } },
        ok: true,
      },
    ]);
    const [restore] = restoresOf(run.events);
    expect(restoresOf(run.events)).toHaveLength(1);
    expect(restore).toMatchObject({ ok: true, at: at(8, 30) });
    expect(restore?.message).toMatch(/timed-export .*restored/);
    // The export goes back first: Eco mode back on first would end it, and its restore would find it changed.
    expect(restore?.message).toMatch(/timed-export on SD2024G001 restored; preset eco-mode on SD2024G001 restored$/);
    expect(run.store.ruleObligations.pending()).toEqual([]);
    await run.runtime.stop();
  });

  it("without the flag: Eco mode the owner switched back on during the window is left as they set it", async () => {
    env = await startEnv({ start: START, rules: RULES, inverterFlags: ["is-controllable"] });
    const run = await env.startRuntime();
    await run.advanceTo(at(8, 5));
    expect(await eco()).toBe(false);
    // The owner wants the house covered now: Eco mode on from the app (which ends the export).
    await env.checker.inverterControl.modifyPreset(INVERTER, "eco-mode", { enabled: true });
    await run.advanceTo(at(8, 31));
    expect(await eco()).toBe(true);
    // Nothing of the rule's restore wrote Eco mode: it already held what it held before.
    expect(ecoRows(run)).toEqual([]);
    expect(restoresOf(run.events)[0]?.message).toMatch(/eco-mode on SD2024G001 unchanged/);
    await run.runtime.stop();
  });

  it("with the flag: the export leaves Eco mode alone, and so does the restore", async () => {
    env = await startEnv({ start: START, rules: RULES, inverterFlags: ["is-controllable", FULL_POWER_FLAG] });
    const run = await env.startRuntime();
    await run.advanceTo(at(8, 5));
    expect(await exporting()).toBe(true);
    expect(await eco()).toBe(true);
    await run.advanceTo(at(8, 31));
    expect(await exporting()).toBe(false);
    expect(await eco()).toBe(true);
    expect(ecoRows(run)).toEqual([]);
    expect(restoresOf(run.events)[0]?.message).not.toMatch(/eco-mode/);
    await run.runtime.stop();
  });
});
