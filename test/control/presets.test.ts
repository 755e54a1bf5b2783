import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type GateSetup, INVERTER, startGate } from "./helpers/gate-setup.js";

describe("control gate: presets", () => {
  let setup: GateSetup;
  beforeAll(async () => {
    setup = await startGate();
  });
  afterAll(async () => {
    await setup.stop();
  });

  it("refuses a timed-charge slot with a bad time locally, naming the field and what is allowed", async () => {
    const { outcome, requests } = await setup.apply({
      kind: "preset",
      serial: INVERTER,
      preset: "timed-charge",
      fields: { enabled: true, slots: [{ start_time: "25:00", end_time: "04:00" }] },
    });
    expect(requests).toEqual([]);
    expect(outcome).toMatchObject({ ok: false, verified: false, skipped: false });
    expect(outcome.message).toBe(
      "Refused, nothing sent: slots.0.start_time must be a time as HH:mm (allowed: slots.*.start_time: a time as HH:mm)",
    );
  });

  it("applies a timed charge with force false and verifies it from the preset's values", async () => {
    const modify = vi.spyOn(setup.client.inverterControl, "modifyPreset");
    const fields = { enabled: true, slots: [{ start_time: "01:00", end_time: "04:30", percent_limit: 90 }] };
    const { outcome, requests } = await setup.apply({
      kind: "preset",
      serial: INVERTER,
      preset: "timed-charge",
      fields,
    });
    expect(requests).toEqual(["Modify Preset", "Get Preset Values"]);
    expect(outcome).toMatchObject({ ok: true, verified: true, skipped: false, message: "Timed Charge applied" });
    expect(modify).toHaveBeenCalledWith(
      INVERTER,
      "timed-charge",
      fields,
      expect.objectContaining({ force: false, priority: "command" }),
    );
    const values = await setup.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    expect(values.enabled).toBe(true);
    expect((values.slots as unknown[])[0]).toEqual({ start_time: "01:00", end_time: "04:30", percent_limit: 90 });
    modify.mockRestore();
  });

  it("changes one slot given by its number and verifies it", async () => {
    const { outcome } = await setup.apply({
      kind: "preset",
      serial: INVERTER,
      preset: "timed-charge",
      fields: { slots: { 2: { start_time: "13:00", end_time: "14:00" } } },
    });
    expect(outcome).toMatchObject({ ok: true, verified: true });
    const values = await setup.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    expect((values.slots as unknown[])[1]).toMatchObject({ start_time: "13:00", end_time: "14:00" });
  });

  it("refuses a field the preset does not have, and a preset the inverter does not list", async () => {
    const field = await setup.apply({ kind: "preset", serial: INVERTER, preset: "eco-mode", fields: { enable: true } });
    expect(field.requests).toEqual([]);
    expect(field.outcome.message).toBe(
      "Refused, nothing sent: enable is not a field of Eco Mode (its fields: enabled)",
    );
    const preset = await setup.apply({
      kind: "preset",
      serial: INVERTER,
      preset: "turbo-mode",
      fields: { enabled: true },
    });
    expect(preset.requests).toEqual([]);
    expect(preset.outcome.message).toContain(
      `preset turbo-mode is not one inverter ${INVERTER} lists (it lists: eco-mode,`,
    );
  });

  it("answers -7 for a locked inverter, as a setting write does, without reading back", async () => {
    const before = await setup.checker.inverterControl.presetValues(INVERTER, "eco-mode");
    await setup.sim.admin(`/devices/${INVERTER}`, { locked: true });
    try {
      const { outcome, requests } = await setup.apply({
        kind: "preset",
        serial: INVERTER,
        preset: "eco-mode",
        fields: { enabled: before.enabled !== true },
      });
      expect(requests).toEqual(["Modify Preset"]);
      expect(outcome).toMatchObject({ ok: false, verified: false, code: -7 });
      expect(outcome.message).toBe(
        "Eco Mode not changed: the device is locked and cannot be modified (code -7): Inverter Locked; unlock it, then try again",
      );
      expect(await setup.checker.inverterControl.presetValues(INVERTER, "eco-mode")).toEqual(before);
    } finally {
      await setup.sim.admin(`/devices/${INVERTER}`, { locked: false });
    }
  });

  it("answers -2 for an offline inverter, without reading back", async () => {
    const before = await setup.checker.inverterControl.presetValues(INVERTER, "eco-mode");
    await setup.sim.admin(`/devices/${INVERTER}`, { offline: true });
    try {
      const { outcome, requests } = await setup.apply({
        kind: "preset",
        serial: INVERTER,
        preset: "eco-mode",
        fields: { enabled: before.enabled !== true },
      });
      expect(requests).toEqual(["Modify Preset"]);
      expect(outcome).toMatchObject({ ok: false, verified: false, code: -2 });
      expect(outcome.message).toContain("the device is offline (code -2)");
      expect(outcome.message).toContain("try again when it is back online");
    } finally {
      await setup.sim.admin(`/devices/${INVERTER}`, { offline: false });
    }
  });

  it("after a timeout (-1) reads the preset's values back once, and follows what they say", async () => {
    const seen = new Set<boolean>();
    for (let attempt = 0; attempt < 8 && seen.size < 2; attempt++) {
      const before = await setup.checker.inverterControl.presetValues(INVERTER, "eco-mode");
      const wanted = before.enabled !== true;
      await setup.sim.admin(`/devices/${INVERTER}`, { timeouts: 1 });
      const { outcome, requests } = await setup.apply({
        kind: "preset",
        serial: INVERTER,
        preset: "eco-mode",
        fields: { enabled: wanted },
      });
      expect(requests).toEqual(["Modify Preset", "Get Preset Values"]);
      const after = await setup.checker.inverterControl.presetValues(INVERTER, "eco-mode");
      expect(outcome.code).toBe(-1);
      expect(outcome.ok).toBe(after.enabled === wanted);
      expect(outcome.verified).toBe(after.enabled === wanted);
      expect(outcome.value).toEqual(after);
      expect(outcome.message).toContain("reading it back");
      seen.add(outcome.ok);
    }
    // The simulator applies a timed-out write half of the time; both ways were seen.
    expect(seen).toEqual(new Set([true, false]));
  });

  it("names the fields a -1 left half applied, wanted against read back, and says trying again is safe", async () => {
    const slot = { start_time: "02:00", end_time: "03:00", percent_limit: 80 };
    const base = await setup.apply({
      kind: "preset",
      serial: INVERTER,
      preset: "timed-charge",
      fields: { enabled: true, slots: [slot] },
    });
    expect(base.outcome, base.outcome.message).toMatchObject({ ok: true, verified: true });
    // The inverter writes the slot's start, then answers -1 before its end and its limit.
    await setup.sim.admin(`/devices/${INVERTER}`, { preset_stops_after: 1 });
    const fields = { enabled: true, slots: [{ start_time: "05:00", end_time: "06:00", percent_limit: 90 }] };
    const { outcome, requests } = await setup.apply({
      kind: "preset",
      serial: INVERTER,
      preset: "timed-charge",
      fields,
    });
    expect(requests).toEqual(["Modify Preset", "Get Preset Values"]);
    expect(outcome).toMatchObject({ ok: false, verified: false, code: -1 });
    expect(outcome.message).toMatch(/^Timed Charge not \(fully\) applied: .*\(code -1\)/);
    expect(outcome.message).toContain(
      "; reading it back shows slot 1 end_time is 03:00 (wanted 06:00), slot 1 percent_limit is 80 (wanted 90); the other 2 field(s) sent are as asked; trying again is safe: the preset is sent with force false, so only the fields that still differ are written",
    );
    const values = await setup.checker.inverterControl.presetValues(INVERTER, "timed-charge");
    expect(values.enabled).toBe(true);
    expect((values.slots as unknown[])[0]).toEqual({ start_time: "05:00", end_time: "03:00", percent_limit: 80 });

    const retry = await setup.apply({ kind: "preset", serial: INVERTER, preset: "timed-charge", fields });
    expect(retry.outcome).toMatchObject({ ok: true, verified: true, message: "Timed Charge applied" });
  });
});
