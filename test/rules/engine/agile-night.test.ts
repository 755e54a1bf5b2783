import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RulesEngine } from "../../../src/rules/engine/index.js";
import { type Env, HOUR, INVERTER, MINUTE, startEnv } from "./helpers.js";

// 16:00 UTC on a winter Tuesday: no sun overnight, so the battery fills from the grid only.
const START = Date.UTC(2025, 0, 14, 16, 0);
const DEADLINE = Date.UTC(2025, 0, 15, 7, 0);
const RULES = [
  "timezone: Europe/London",
  "battery: { capacity_kwh: 9.5, charge_kw: 2.5 }",
  "tariffs:",
  "  import: { type: agile, file: agile.json }",
  "rules:",
  "  - name: overnight-top-up",
  '    when: { battery: { target_soc: 90, before: "07:00", after: "22:00" } }',
  "    do:",
  "      - preset: timed-charge",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 100 }] }',
];

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);

describe("an agile night: the battery charges in the cheapest slots and the preset is put back", () => {
  let env: Env;
  let runtime: RulesEngine;
  let before: Record<string, unknown>;
  const seen: { start: number; end: number; slot: unknown; enabled: unknown; soc: number }[] = [];
  let run: Awaited<ReturnType<Env["startRuntime"]>>;

  beforeAll(async () => {
    env = await startEnv({ start: START, rules: RULES });
    before = await env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    run = await env.startRuntime();
    runtime = run.runtime;
    await run.pushLive();
    // Telemetry every 30 minutes of virtual time; the engine's own timers run in between.
    for (let at = START + 30 * MINUTE; at <= DEADLINE + HOUR; at += 30 * MINUTE) {
      await run.advanceTo(at, async () => {
        const status = runtime.list()[0];
        const window = status?.nextWindow;
        const now = env.now();
        if (!window || window.start > now || window.end <= now) return;
        const values = await env.checker.inverterControl.presetValues(INVERTER, "timed-charge");
        const live = await env.checker.inverterData.systemDataLatest(INVERTER);
        seen.push({
          ...window,
          slot: (values.slots as unknown[])[0],
          enabled: values.enabled,
          soc: Number(live.battery?.percent),
        });
      });
      await run.pushLive();
    }
  }, 60_000);

  afterAll(async () => {
    await runtime?.stop();
    await env?.stop();
  });

  it("holds the timed-charge slot of the planned window while the window is open", () => {
    expect(seen.length).toBeGreaterThan(0);
    for (const observed of seen) {
      expect(observed.enabled).toBe(true);
      expect(observed.slot).toMatchObject({
        start_time: expect.stringMatching(new RegExp(`^${hhmm(observed.start)}`)),
      });
      expect(observed.slot).toMatchObject({ end_time: expect.stringMatching(new RegExp(`^${hhmm(observed.end)}`)) });
    }
  });

  it("charges only in the cheapest half-hours before the deadline", async () => {
    const opened = run.events.filter((event) => event.type === "window" && event.phase === "open");
    expect(opened.length).toBeGreaterThan(0);
    const tariff = JSON.parse((await import("node:fs")).readFileSync(`${env.dir}/agile.json`, "utf8")) as {
      results: { valid_from: string; value_inc_vat: number }[];
    };
    const night = tariff.results.filter((slot) => {
      const at = Date.parse(slot.valid_from);
      return at >= Date.UTC(2025, 0, 14, 22) && at < DEADLINE;
    });
    const priceAt = (at: number) =>
      night.find((slot) => Date.parse(slot.valid_from) === Math.floor(at / (30 * MINUTE)) * 30 * MINUTE)?.value_inc_vat;
    const used = new Set<number>();
    for (const event of opened) {
      if (event.type !== "window") continue;
      for (let at = event.window.start; at < event.window.end; at += 30 * MINUTE) used.add(priceAt(at) ?? Number.NaN);
    }
    const dearestUsed = Math.max(...used);
    const cheaperUnused = night.filter((slot) => slot.value_inc_vat < dearestUsed && !used.has(slot.value_inc_vat));
    expect(cheaperUnused).toEqual([]);
  });

  it("fills the battery to its target in the simulator's physics", () => {
    expect(Math.max(...seen.map((observed) => observed.soc))).toBeGreaterThanOrEqual(88);
  });

  it("puts the timed-charge preset back as it was after the window, and keeps no open promise", async () => {
    const restores = run.events.filter((event) => event.type === "restore");
    expect(restores.length).toBeGreaterThan(0);
    expect(restores.every((event) => event.type === "restore" && event.ok && event.method === "local")).toBe(true);
    expect(await env.checker.inverterControl.presetValues(INVERTER, "timed-charge")).toEqual(before);
    expect(run.store.ruleObligations.pending()).toEqual([]);
    expect(await env.checker.snapshots.exists(INVERTER, "e2m-overnight-top-up")).toBe(false);
  });

  it("records the rule's changes in the audit log as the rule's", () => {
    const rows = run.store.audit.recent({ limit: 100 });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.source === "rule" && row.requesterName === "overnight-top-up")).toBe(true);
  });
});
