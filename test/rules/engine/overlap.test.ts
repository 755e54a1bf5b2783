import { afterEach, describe, expect, it } from "vitest";
import type { RuleEvent } from "../../../src/rules/engine/index.js";
import { type Env, INVERTER, startEnv } from "./helpers.js";

// A January morning: Europe/London is UTC.
const START = Date.UTC(2025, 0, 15, 7, 50);
const at = (hour: number, minute: number) => Date.UTC(2025, 0, 15, hour, minute);

/** Cheap 08:00-08:30 (rule B's window), dear 18:00-18:30 (rule A's planned window, 30 minutes long). */
const header = [
  "timezone: Europe/London",
  "tariffs:",
  "  import:",
  "    type: zones",
  "    price: 0.2",
  '    zones: [{ hours: "08:00-08:30", price: 0.05 }, { hours: "18:00-18:30", price: 0.4 }]',
  "rules:",
];
const ruleA = (extra: string[] = []) => [
  "  - name: rule-a",
  "    priority: 10",
  "    when: { price: { above: 0.3 } }",
  ...extra,
  "    do:",
  "      - { setting: 129, value: 20 }",
];
const ruleB = (extra: string[] = []) => [
  "  - name: rule-b",
  "    priority: 5",
  "    when: { price: { below: 0.1 } }",
  ...extra,
  "    do:",
  "      - { setting: 71, value: 50 }",
  "      - preset: timed-charge",
  '        with: { enabled: true, slots: [{ start_time: "{{ window.start }}", end_time: "{{ window.end }}", percent_limit: 90 }] }',
];
const cronRule = [
  "  - name: morning-discharge",
  "    when: { cron: '59 7 * * *' }",
  "    do:",
  "      - preset: timed-discharge",
  '        with: { enabled: true, slots: [{ start_time: "16:00", end_time: "19:00" }] }',
];

/** A timed preset's values with slot 1's limit replaced. */
function withSlotOneLimit(values: Record<string, unknown> | undefined, limit: unknown) {
  const slots = (values?.slots ?? []) as Record<string, unknown>[];
  return {
    ...values,
    enabled: values?.enabled,
    slots: slots.map((slot, index) => (index === 0 ? { ...slot, percent_limit: limit } : slot)),
  };
}

function restoresOf(events: readonly RuleEvent[], rule: string) {
  return events.filter((event) => event.type === "restore" && event.rule === rule);
}

describe("overlapping rule windows on the simulator", () => {
  let env: Env | undefined;
  afterEach(async () => {
    await env?.stop();
    env = undefined;
  });

  const setting = async (id: number) => {
    const read = await env?.checker.inverterControl.readSetting(INVERTER, id);
    if (!read?.ok) throw new Error(`setting ${id} could not be read`);
    return read.value;
  };
  const preset = async (id: "timed-charge" | "timed-discharge") =>
    env?.checker.inverterControl.presetValues(INVERTER, id);

  it("issue 23: A (run now 07:58-08:28), B (08:00-08:30) and a cron rule (07:59): each restore puts back only its own controls", async () => {
    env = await startEnv({ start: START, rules: [...header, ...ruleA(), ...ruleB(), ...cronRule] });
    const before = {
      s129: await setting(129),
      s71: await setting(71),
      charge: await preset("timed-charge"),
      discharge: await preset("timed-discharge"),
    };
    const run = await env.startRuntime();
    await run.advanceTo(at(7, 58));
    const ran = await run.runtime.runNow("rule-a");
    expect(ran.ok).toBe(true);
    expect(run.runtime.list().find((rule) => rule.name === "rule-a")?.nextWindow).toEqual({
      start: at(7, 58),
      end: at(8, 28),
      readable: ["Set setting 129 to 20 on inverter SD2024G001"],
    });
    expect(await setting(129)).toBe(20);

    await run.advanceTo(at(7, 59) + 30_000);
    const discharge = await preset("timed-discharge");
    expect(discharge).not.toEqual(before.discharge);

    await run.advanceTo(at(8, 1));
    const charge = await preset("timed-charge");
    expect(charge).not.toEqual(before.charge);
    expect(await setting(71)).toBe(50);

    // A's window has ended: only A's setting is back; B's window still runs; the cron's discharge stays.
    // (Setting 129 is the discharge preset's slot 1 limit, which the cron rule left to A.)
    await run.advanceTo(at(8, 29));
    expect(await setting(129)).toBe(before.s129);
    expect(await setting(71)).toBe(50);
    expect(await preset("timed-charge")).toEqual(charge);
    const dischargeAfterA = withSlotOneLimit(discharge, before.s129);
    expect(await preset("timed-discharge")).toEqual(dischargeAfterA);

    // B's window has ended: B's controls are back; A's setting and the cron's discharge are left alone.
    await run.advanceTo(at(8, 31));
    expect(await setting(129)).toBe(before.s129);
    expect(await setting(71)).toBe(before.s71);
    expect(await preset("timed-charge")).toEqual(before.charge);
    expect(await preset("timed-discharge")).toEqual(dischargeAfterA);
    expect(dischargeAfterA.enabled).toBe(true);
    expect(dischargeAfterA.slots[0]).toMatchObject({ start_time: "16:00", end_time: "19:00" });

    const [restoreA] = restoresOf(run.events, "rule-a");
    expect(restoresOf(run.events, "rule-a")).toHaveLength(1);
    expect(restoreA).toMatchObject({ ok: true, at: at(8, 28) });
    expect(restoreA?.message).toMatch(/setting 129 .*restored/);
    expect(restoreA?.message).not.toMatch(/71|timed-charge|timed-discharge/);
    const [restoreB] = restoresOf(run.events, "rule-b");
    expect(restoresOf(run.events, "rule-b")).toHaveLength(1);
    expect(restoreB).toMatchObject({ ok: true, at: at(8, 30) });
    expect(restoreB?.message).toMatch(/setting 71 .*restored/);
    expect(restoreB?.message).toMatch(/timed-charge .*restored/);
    expect(restoreB?.message).not.toMatch(/129|timed-discharge/);
    expect(restoresOf(run.events, "morning-discharge")).toEqual([]);
    // No two of them wanted one control: nobody lost an action, nobody had to wait.
    expect(run.events.filter((event) => event.type === "conflict")).toEqual([]);
    // Nobody but the cron rule ever wrote the discharge preset.
    const discharges = run.store.audit
      .recent({ limit: 200 })
      .filter((row) => JSON.stringify(row).includes("timed-discharge"))
      .map((row) => row.requesterName);
    expect(new Set(discharges)).toEqual(new Set(["morning-discharge"]));
    await run.runtime.stop();
  });

  it("two windows on one control: the higher priority keeps it, the event says who won, and the original comes back", async () => {
    // Both rules set the reserve (71); A's window (run now, 07:58-08:28) and B's (08:00-08:30) overlap.
    const bOnReserve = [
      "  - name: rule-b",
      "    priority: 5",
      "    when: { price: { below: 0.1 } }",
      "    do:",
      "      - { setting: 71, value: 50 }",
    ];
    const aOnReserve = [
      "  - name: rule-a",
      "    priority: 10",
      "    when: { price: { above: 0.3 } }",
      "    do:",
      "      - { setting: 71, value: 30 }",
    ];
    env = await startEnv({ start: START, rules: [...header, ...aOnReserve, ...bOnReserve] });
    const before = await setting(71);
    const run = await env.startRuntime();
    await run.advanceTo(at(7, 58));
    await run.runtime.runNow("rule-a");
    await run.advanceTo(at(8, 1));
    // B lost the control to A while A's window is open.
    expect(await setting(71)).toBe(30);
    const conflict = run.events.find((event) => event.type === "conflict");
    expect(conflict).toMatchObject({
      winner: "rule-a",
      loser: "rule-b",
      control: `setting:${INVERTER}:71`,
      at: at(8, 0),
    });
    await run.advanceTo(at(8, 29));
    // A's restore found its value still there and put back what was there before A.
    expect(await setting(71)).toBe(before);
    await run.advanceTo(at(8, 31));
    expect(await setting(71)).toBe(before);
    expect(run.store.ruleObligations.pending()).toEqual([]);
    await run.runtime.stop();
  });

  it("a higher rule that takes a control over mid-window restores first; the lower one's restore waits, then puts back the original", async () => {
    env = await startEnv({
      start: START,
      rules: [
        ...header,
        "  - name: rule-a",
        "    priority: 10",
        "    when: { price: { above: 0.3 } }",
        "    do: [{ setting: 71, value: 30 }]",
        "  - name: rule-b",
        "    priority: 5",
        "    when: { price: { below: 0.1 } }",
        "    do: [{ setting: 71, value: 50 }]",
      ],
    });
    const before = await setting(71);
    const run = await env.startRuntime();
    await run.advanceTo(at(8, 10));
    expect(await setting(71)).toBe(50);
    // A runs now inside B's window: 08:10-08:40, and takes the reserve over.
    await run.runtime.runNow("rule-a");
    expect(await setting(71)).toBe(30);
    await run.advanceTo(at(8, 31));
    // B's window ended, but A still holds the reserve: B's restore waits and says so.
    expect(await setting(71)).toBe(30);
    const conflicts = run.events.filter((event) => event.type === "conflict");
    expect(conflicts).toEqual([
      expect.objectContaining({ winner: "rule-a", loser: "rule-b", action: "setting 71 = 30", at: at(8, 10) }),
      expect.objectContaining({ winner: "rule-a", loser: "rule-b", action: "restore", at: at(8, 30) }),
    ]);
    expect(conflicts[1]?.message).toMatch(/restore waits until 08:40: rule rule-a holds setting:SD2024G001:71/);
    await run.advanceTo(at(8, 41));
    // A put back B's value, then B found its own value and put back the original.
    expect(await setting(71)).toBe(before);
    expect(restoresOf(run.events, "rule-a")[0]?.message).toMatch(/setting 71 .*restored/);
    expect(restoresOf(run.events, "rule-b")[0]?.message).toMatch(/setting 71 .*restored/);
    expect(run.store.ruleObligations.pending()).toEqual([]);
    await run.runtime.stop();
  });

  it("a control someone else changed during the window is left as they set it, and the restore says so", async () => {
    env = await startEnv({ start: START, rules: [...header, ...ruleB()] });
    const before = { s71: await setting(71), charge: await preset("timed-charge") };
    const run = await env.startRuntime();
    await run.advanceTo(at(8, 5));
    expect(await setting(71)).toBe(50);
    // The owner sets the reserve from the app in the middle of the window.
    await env.checker.inverterControl.writeSetting(INVERTER, 71, 60);
    await run.advanceTo(at(8, 31));
    expect(await setting(71)).toBe(60);
    expect(await preset("timed-charge")).toEqual(before.charge);
    const [restore] = restoresOf(run.events, "rule-b");
    expect(restore).toMatchObject({ ok: true });
    expect(restore?.message).toMatch(/setting 71 .*left as is.*changed since/);
    expect(restore?.message).toMatch(/timed-charge .*restored/);
    await run.runtime.stop();
  });
});
