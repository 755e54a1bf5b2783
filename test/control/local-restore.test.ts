import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChangeRequest,
  cloudDeviceReads,
  deviceSideEffects,
  FULL_POWER_FLAG,
  prepareRestore,
  restorePlan,
} from "../../src/control/index.js";
import { HOUR_MS } from "../../src/time/index.js";
import { INVERTER, type LocalGate, startLocalGate } from "./helpers/local-gate.js";

const RESERVE = 71;
const rule = { via: "rule" as const, name: "cheap-window" };

/**
 * A rule's promise to put things back holds over the LAN path too: the values it saved before
 * its window are in SQLite, and a restarted daemon (a new gate and store on the same file) puts
 * exactly those back through the gate, even when the day's write budget is spent.
 */
describe("a rule's restore over a device changed over the LAN", () => {
  let setup: LocalGate;
  beforeAll(async () => {
    setup = await startLocalGate({ budget: 5 });
  });
  afterAll(async () => {
    await setup.stop();
  });

  it("puts the exact values back after a restart, past a spent write budget", async () => {
    const reserveBefore = await setup.deviceValue(RESERVE);
    const presetBefore = await setup.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    const reserve = reserveBefore === 85 ? 86 : 85;
    const requests: ChangeRequest[] = [
      setup.setting(RESERVE, reserve),
      {
        kind: "preset",
        serial: INVERTER,
        preset: "timed-charge",
        fields: { enabled: true, slots: { 1: { start_time: "02:10", end_time: "05:20", percent_limit: 77 } } },
      },
    ];
    const reads = cloudDeviceReads(setup.gate.reads);
    const controls = await prepareRestore(reads, requests, [], () => [], pino({ enabled: false }));
    const now = setup.clock.now();
    setup.store.ruleObligations.open({
      rule: rule.name,
      createdAt: now,
      windowStart: now,
      windowEnd: now + HOUR_MS,
      restore: { snapshots: [], controls },
    });
    for (const request of requests) expect((await setup.gate.apply(request, rule)).ok).toBe(true);
    expect(await setup.deviceValue(RESERVE)).toBe(reserve);
    expect(await setup.checker.inverterControl.presetValues(INVERTER, "timed-charge")).not.toEqual(presetBefore);
    // One setting and a preset of four values: the budget of 5 is spent.
    expect(setup.gate.writesToday()?.devices[INVERTER]).toBe(5);

    await setup.restart();
    const [obligation, ...others] = setup.store.ruleObligations.pending();
    expect(others).toEqual([]);
    if (!obligation) throw new Error("the promise did not survive the restart");
    const report = await restorePlan(cloudDeviceReads(setup.gate.reads), setup.gate, rule, obligation.restore);
    expect(report).toMatchObject({ ok: true, method: "local" });
    expect(await setup.deviceValue(RESERVE)).toBe(reserveBefore);
    const presetAfter = await setup.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    expect(presetAfter).toEqual(presetBefore);
    const counted = setup.gate.writesToday()?.devices[INVERTER] ?? 0;
    expect(counted).toBeGreaterThan(5);
    const rows = setup.store.audit.recent({ target: INVERTER, limit: 10 });
    expect(rows.filter((row) => row.source === "rule" && row.ok && !row.skipped).length).toBeGreaterThanOrEqual(2);
    expect(rows.some((row) => row.message.includes("writes today"))).toBe(false);
  });
});

describe("a rule's restore when the device's path changed during its window (the real LAN and the cloud)", () => {
  let setup: LocalGate;
  beforeAll(async () => {
    setup = await startLocalGate({ lan: true });
  }, 30_000);
  afterAll(async () => {
    await setup.stop();
  });

  // The window writes what both paths carry: this model's LAN map has no register for a charge
  // slot's SOC limit, so a limit written over the cloud is left as it is by a restore over the LAN.
  it("puts the exact values back whichever path carries the restore: started over the cloud, restored over the LAN, and the reverse", async () => {
    for (const [window, restore] of [
      ["cloud", "local"],
      ["local", "cloud"],
    ] as const) {
      const before = await setup.deviceValue(RESERVE);
      const presetBefore = await setup.checker.inverterControl.presetValues(INVERTER, "timed-charge");
      const requests: ChangeRequest[] = [
        setup.setting(RESERVE, before === 33 ? 34 : 33),
        {
          kind: "preset",
          serial: INVERTER,
          preset: "timed-charge",
          fields: { enabled: true, slots: { 1: { start_time: "01:30", end_time: "04:30" } } },
        },
      ];
      setup.setPath(window);
      const lanWrites = setup.lanDongle?.writesReceived.length ?? 0;
      const cloudWrites = setup.events.filter(
        (event) => event.method === "POST" && event.endpoint.startsWith("Modify"),
      ).length;
      const controls = await prepareRestore(
        cloudDeviceReads(setup.gate.reads),
        requests,
        [],
        () => [],
        pino({ enabled: false }),
      );
      for (const request of requests) expect((await setup.gate.apply(request, rule)).ok, window).toBe(true);
      expect(await setup.deviceValue(RESERVE)).not.toBe(before);
      const wentLan = (setup.lanDongle?.writesReceived.length ?? 0) > lanWrites;
      const wentCloud =
        setup.events.filter((event) => event.method === "POST" && event.endpoint.startsWith("Modify")).length >
        cloudWrites;
      expect({ wentLan, wentCloud }, `the window's writes went by the ${window}`).toEqual({
        wentLan: window === "local",
        wentCloud: window === "cloud",
      });
      setup.setPath(restore);
      const report = await restorePlan(cloudDeviceReads(setup.gate.reads), setup.gate, rule, {
        snapshots: [],
        controls,
      });
      expect(report, `${window} then ${restore}`).toMatchObject({ ok: true });
      expect(await setup.deviceValue(RESERVE)).toBe(before);
      expect(await setup.checker.inverterControl.presetValues(INVERTER, "timed-charge")).toEqual(presetBefore);
    }
  });

  // lan-presets.ts: over the LAN, timed-export writes Eco mode (setting 24) off before its switch, even
  // on an inverter with full-power-discharge-in-eco-mode; the rule never names Eco mode.
  it("a window's timed-export over the LAN switches Eco mode off: the restore puts it back on after the export", async () => {
    setup.setPath("local");
    const eco = async () => (await setup.checker.inverterControl.presetValues(INVERTER, "eco-mode")).enabled;
    if (!(await eco())) await setup.checker.inverterControl.modifyPreset(INVERTER, "eco-mode", { enabled: true });
    const exportBefore = await setup.checker.inverterControl.presetValues(INVERTER, "timed-export");
    expect(exportBefore.enabled).toBe(false);
    const request: ChangeRequest = {
      kind: "preset",
      serial: INVERTER,
      preset: "timed-export",
      fields: { enabled: true, slots: { 1: { start_time: "17:00", end_time: "18:00" } } },
    };
    const reads = cloudDeviceReads(setup.gate.reads);
    const withFlag = { ...setup.inverter, flags: [...setup.inverter.flags, FULL_POWER_FLAG] };
    const effects = deviceSideEffects(() => withFlag, reads.pathOf);
    const controls = await prepareRestore(reads, [request], [], effects, pino({ enabled: false }));
    expect((await setup.gate.apply(request, rule)).ok).toBe(true);
    expect(await eco()).toBe(false);

    const report = await restorePlan(reads, setup.gate, rule, { snapshots: [], controls });
    expect(report).toMatchObject({ ok: true });
    expect(report.message).toMatch(/timed-export on SD2024G001 restored; preset eco-mode on SD2024G001 restored$/);
    expect(await eco()).toBe(true);
    expect((await setup.checker.inverterControl.presetValues(INVERTER, "timed-export")).enabled).toBe(false);
  });
});
