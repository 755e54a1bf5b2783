import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ChangeRequest } from "../../src/control/index.js";
import { HOUR_MS } from "../../src/time/index.js";
import { INVERTER, type LocalGate, READ, startLocalGate, WRITE } from "./helpers/local-gate.js";

const READ_PRESET = "Get Preset Values";
const WRITE_PRESET = "Modify Preset";

const RESERVE = 71;

/** The writes of the day are counted per device, kept in SQLite, and refused once the budget is spent. */
describe("control gate: write only on change, over the LAN path", () => {
  let setup: LocalGate;
  beforeAll(async () => {
    setup = await startLocalGate();
  });
  afterAll(async () => {
    await setup.stop();
  });

  it("reads a value it does not know first, and sends no write when the device already holds it", async () => {
    const held = await setup.deviceValue(RESERVE);
    const first = await setup.apply(setup.setting(RESERVE, Number(held)));
    expect(first.requests).toEqual([READ]);
    expect(first.outcome).toMatchObject({ ok: true, skipped: true });
    const again = await setup.apply(setup.setting(RESERVE, String(held)));
    expect(again.requests).toEqual([]);
    expect(again.outcome.skipped).toBe(true);
    const changed = await setup.apply(setup.setting(RESERVE, Number(held) === 40 ? 41 : 40));
    expect(changed.requests).toEqual([WRITE]);
    expect(changed.outcome).toMatchObject({ ok: true, skipped: false, verified: true });
    // Only the one write was counted.
    expect(setup.gate.writesToday()).toEqual({ budget: 100, devices: { [INVERTER]: 1 } });
  });

  it("through the cloud, sends nothing for a preset whose values it just read back, until another write may have changed them", async () => {
    const count = () => setup.gate.writesToday()?.devices[INVERTER] ?? 0;
    const range = (fields: Record<string, unknown>): ChangeRequest => ({
      kind: "preset",
      serial: INVERTER,
      preset: "battery-operating-range",
      fields,
    });
    setup.setPath("cloud");
    try {
      const reserve = (await setup.apply(range({ reserve_percent: 33 }))).outcome;
      expect(reserve).toMatchObject({ ok: true, verified: true });
      const before = count();
      const same = await setup.apply(range({ reserve_percent: 33 }));
      expect(same.requests).toEqual([]);
      expect(same.outcome).toMatchObject({ ok: true, skipped: true });
      expect(count()).toBe(before);
      // A write to another preset may have changed this one's settings: its values no longer spare a write.
      expect(
        (await setup.apply({ kind: "preset", serial: INVERTER, preset: "eco-mode", fields: { enabled: true } })).outcome
          .ok,
      ).toBe(true);
      const after = await setup.apply(range({ reserve_percent: 33 }));
      expect(after.requests).toEqual([WRITE_PRESET, READ_PRESET]);
    } finally {
      setup.setPath("local");
    }
  });

  it("reads a preset first: counts only the values that differ, and sends nothing when all hold", async () => {
    const count = () => setup.gate.writesToday()?.devices[INVERTER] ?? 0;
    const timedCharge = (fields: Record<string, unknown>): ChangeRequest => ({
      kind: "preset",
      serial: INVERTER,
      preset: "timed-charge",
      fields,
    });
    const fields = { enabled: true, slots: [{ start_time: "01:00", end_time: "04:30", percent_limit: 90 }] };
    expect((await setup.apply(timedCharge(fields))).outcome.ok).toBe(true);
    const before = count();

    const same = await setup.apply(timedCharge(fields));
    expect(same.requests).toEqual([READ_PRESET]);
    expect(same.outcome).toMatchObject({
      ok: true,
      skipped: true,
      message: "Timed Charge already holds these values: nothing sent",
    });
    expect(count()).toBe(before);

    const one = await setup.apply(timedCharge({ slots: { 1: { percent_limit: 80 } } }));
    expect(one.requests).toEqual([READ_PRESET, WRITE_PRESET, READ_PRESET]);
    expect(one.outcome).toMatchObject({ ok: true, verified: true });
    expect(count()).toBe(before + 1);

    const four = { enabled: false, slots: { 1: { start_time: "02:00", end_time: "05:00", percent_limit: 70 } } };
    expect((await setup.apply(timedCharge(four))).outcome.ok).toBe(true);
    expect(count()).toBe(before + 5);

    // Through the cloud nothing is read first: the values last read back (the switch off, the
    // slot cleared by it) count only what differs, three slot values; the switch already holds.
    setup.setPath("cloud");
    try {
      const cloud = await setup.apply(timedCharge(four));
      expect(cloud.requests).toEqual([WRITE_PRESET, READ_PRESET]);
      expect(count()).toBe(before + 8);
    } finally {
      setup.setPath("local");
    }
  });
});

describe("control gate: the daily write budget", () => {
  let setup: LocalGate;
  beforeAll(async () => {
    setup = await startLocalGate({ budget: 5 });
  });
  afterAll(async () => {
    await setup.stop();
  });
  afterEach(() => {
    setup.warnings.length = 0;
  });

  /** The 80% warnings (a refusal is a warning of its own, the gate's). */
  const budgetWarnings = () => setup.warnings.filter((event) => event.message.startsWith(`device ${INVERTER} has had`));

  it("warns once on bridge/logging at 80%, and refuses the write that would go past 100%, audited", async () => {
    for (const value of [20, 21, 22]) expect((await setup.apply(setup.setting(RESERVE, value))).outcome.ok).toBe(true);
    expect(budgetWarnings()).toEqual([]);
    await setup.apply(setup.setting(RESERVE, 23));
    const [warning, ...more] = budgetWarnings();
    expect(more).toEqual([]);
    expect(warning?.level).toBe("warn");
    expect(warning?.message).toContain(`device ${INVERTER} has had 4 of its 5 writes today (control.write_budget)`);
    expect((await setup.apply(setup.setting(RESERVE, 24))).outcome.ok).toBe(true);
    expect(budgetWarnings()).toHaveLength(1);

    const refused = await setup.apply(setup.setting(RESERVE, 25), { via: "mqtt", name: "number.reserve" });
    expect(refused.requests).toEqual([]);
    expect(refused.outcome).toMatchObject({ ok: false, refused: true, skipped: false });
    expect(refused.outcome.message).toBe(
      `Refused, nothing sent: device ${INVERTER} has had 5 of its 5 writes today (control.write_budget), and this change needs one more write: try again after local midnight, or raise control.write_budget`,
    );
    expect(setup.store.audit.recent({ target: INVERTER, limit: 1 })[0]).toMatchObject({
      source: "mqtt",
      action: `setting:${RESERVE}`,
      ok: false,
      message: refused.outcome.message,
    });
    expect(await setup.deviceValue(RESERVE)).toBe(24);
    expect(setup.gate.writesToday()).toEqual({ budget: 5, devices: { [INVERTER]: 5 } });
  });

  it("still sends a restore that puts the house back, and counts it", async () => {
    const restored = await setup.apply(setup.setting(RESERVE, 20), { via: "rule", name: "cheap", restore: true });
    expect(restored.requests).toEqual([WRITE]);
    expect(restored.outcome).toMatchObject({ ok: true, verified: true });
    expect(await setup.deviceValue(RESERVE)).toBe(20);
    expect(setup.gate.writesToday()?.devices[INVERTER]).toBe(6);
  });

  it("keeps the day's count across a restart", async () => {
    await setup.restart();
    expect(setup.gate.writesToday()).toEqual({ budget: 5, devices: { [INVERTER]: 6 } });
    const refused = await setup.apply(setup.setting(RESERVE, 30));
    expect(refused.outcome.refused).toBe(true);
    expect(refused.outcome.message).toContain("has had 6 of its 5 writes today");
    // The warning was given for today already, before the restart.
    expect(budgetWarnings()).toEqual([]);
  });

  it("starts again at local midnight in the house's zone", async () => {
    // The pinned start is 12:00 GMT: 11 h 59 min on it is still the same day in London.
    setup.clock.advance(11 * HOUR_MS + 59 * 60_000);
    expect((await setup.apply(setup.setting(RESERVE, 31))).outcome.refused).toBe(true);
    setup.clock.advance(60_000);
    const next = await setup.apply(setup.setting(RESERVE, 31));
    expect(next.outcome).toMatchObject({ ok: true, skipped: false });
    expect(setup.gate.writesToday()).toEqual({ budget: 5, devices: { [INVERTER]: 1 } });
  });
});
