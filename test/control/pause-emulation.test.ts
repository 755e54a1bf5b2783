import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PauseSlots } from "../../src/control/index.js";
import { localMinuteOfDay } from "../../src/time/index.js";
import { INVERTER, type LocalGate, startLocalGate } from "./helpers/local-gate.js";

const CHARGE = 72;
const DISCHARGE = 73;
const LIMITS = "e2m:pause-limits";
const requester = { via: "mqtt" as const, name: "pause_battery_mode" };

/**
 * Issue 39: the demo house's hybrid answers no pause registers (HR 318-320) over the LAN, but has
 * the battery power limits (HR 111/112): its Pause Battery is the daemon's, which holds the paused
 * side's limit at 0 through the gate and puts the limits back when the pause ends, also after a
 * restart, and moves the pause at its slot's edges on the daemon's clock.
 */
describe("Pause Battery held by the daemon on a hybrid over the LAN", () => {
  let setup: LocalGate;
  let before: { charge: unknown; discharge: unknown };
  beforeAll(async () => {
    setup = await startLocalGate({ lan: true });
    before = { charge: await lanValue(CHARGE), discharge: await lanValue(DISCHARGE) };
    setup.limitsInLanWatts(Number(before.charge));
  }, 30_000);
  afterAll(async () => {
    await setup?.stop();
  });

  /** The limit as the dongle answers it now. */
  const lanValue = (settingId: number) => setup.lanValue(settingId);
  const pause = (fields: Record<string, unknown>) =>
    setup.gate.apply({ kind: "preset", serial: INVERTER, preset: "pause-battery", fields }, requester);

  it("starts with limits above 0, so a pause can be told apart", () => {
    expect(before.charge).toBeGreaterThan(0);
    expect(before.discharge).toBeGreaterThan(0);
  });

  it("pauses the discharge: HR 112 at 0 through the gate, audited; the charge limit untouched", async () => {
    const outcome = await pause({ mode: 2 });
    expect(outcome).toMatchObject({ ok: true, value: { mode: 2, start_time: "00:00", end_time: "23:59" } });
    expect(await lanValue(DISCHARGE)).toBe(0);
    expect(await lanValue(CHARGE)).toBe(before.charge);
    const rows = setup.store.audit.recent({ target: INVERTER, limit: 5 });
    expect(rows.find((row) => row.action === `setting:${DISCHARGE}` && !row.skipped)).toMatchObject({
      ok: true,
      source: "mqtt",
    });
    expect(rows.find((row) => row.action.startsWith("preset:"))).toMatchObject({ ok: true });
  });

  it("keeps a limit written while its side is paused for after the pause, and writes nothing", async () => {
    const outcome = await setup.gate.apply(setup.setting(DISCHARGE, 1000), requester);
    expect(outcome).toMatchObject({ ok: true, skipped: true });
    expect(outcome.message).toContain("put back when the pause ends");
    expect(await lanValue(DISCHARGE)).toBe(0);
    expect(setup.store.localSnapshots.get(INVERTER, LIMITS)?.settings).toContainEqual(
      expect.objectContaining({ settingId: DISCHARGE, value: 1000 }),
    );
    // Put the first value back as the one to restore, for the test below.
    await setup.gate.apply(setup.setting(DISCHARGE, Number(before.discharge)), requester);
  });

  it("refuses a user's snapshot named as the daemon's own: the kept limits stay, the discharge stays paused", async () => {
    const kept = setup.store.localSnapshots.get(INVERTER, LIMITS);
    expect(kept).toBeDefined();
    for (const op of ["take", "restore", "delete"] as const) {
      const outcome = await setup.gate.act({ kind: "snapshot", op, serial: INVERTER, name: LIMITS }, requester);
      expect(outcome).toMatchObject({ ok: false, refused: true });
      expect(outcome.message).toContain("energy2mqtt's own");
    }
    expect(setup.store.localSnapshots.get(INVERTER, LIMITS)).toEqual(kept);
    expect(await lanValue(DISCHARGE)).toBe(0);
  });

  it("refuses a mode that is none of 0-3, and changes nothing", async () => {
    const outcome = await pause({ mode: 7 });
    expect(outcome).toMatchObject({ ok: false, refused: true });
    expect(await lanValue(DISCHARGE)).toBe(0);
    expect(await lanValue(CHARGE)).toBe(before.charge);
  });

  it("puts the limits back at Disabled after a restart, and the kept limits are gone", async () => {
    await setup.restart();
    const outcome = await pause({ mode: 0 });
    expect(outcome).toMatchObject({ ok: true, value: { mode: 0 } });
    expect(await lanValue(DISCHARGE)).toBe(before.discharge);
    expect(await lanValue(CHARGE)).toBe(before.charge);
    expect(setup.store.localSnapshots.get(INVERTER, LIMITS)).toBeUndefined();
  });

  it("starts and ends a pause slot at its edges on the injected clock", async () => {
    const slots = new PauseSlots(setup.gate, () => [INVERTER], setup.clock);
    const minute = localMinuteOfDay(setup.clock.now(), "UTC");
    const at = (offset: number) => {
      const m = (minute + offset) % 1440;
      return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}:00`;
    };
    expect(await pause({ mode: 3, start_time: at(2), end_time: at(4) })).toMatchObject({ ok: true });
    await slots.tick();
    expect(await lanValue(CHARGE)).toBe(before.charge);
    setup.clock.advance(2 * 60_000);
    await slots.tick();
    expect(await lanValue(CHARGE)).toBe(0);
    expect(await lanValue(DISCHARGE)).toBe(0);
    const edge = setup.store.audit.recent({ target: INVERTER, limit: 2 });
    expect(edge.every((row) => row.source === "daemon" && row.requesterName === "pause-slot")).toBe(true);
    setup.clock.advance(2 * 60_000);
    await slots.tick();
    expect(await lanValue(CHARGE)).toBe(before.charge);
    expect(await lanValue(DISCHARGE)).toBe(before.discharge);
  });
});
