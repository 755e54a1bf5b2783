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

  it("reports a preset the locked inverter did not apply, after reading it back", async () => {
    const before = await setup.checker.inverterControl.presetValues(INVERTER, "eco-mode");
    await setup.sim.admin(`/devices/${INVERTER}`, { locked: true });
    try {
      const { outcome, requests } = await setup.apply({
        kind: "preset",
        serial: INVERTER,
        preset: "eco-mode",
        fields: { enabled: before.enabled !== true },
      });
      expect(requests).toEqual(["Modify Preset", "Get Preset Values"]);
      expect(outcome).toMatchObject({ ok: false, verified: false });
      expect(outcome.message).toBe("Eco Mode not (fully) applied: Inverter Locked");
    } finally {
      await setup.sim.admin(`/devices/${INVERTER}`, { locked: false });
    }
  });
});
