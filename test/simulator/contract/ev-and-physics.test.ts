import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CloudClient } from "../../../src/cloud/client.js";
import { startTestSimulator } from "../../helpers/simulator.js";

// 18:30 UTC on a Sunday: the car is usually home by then.
const START = Date.UTC(2025, 5, 15, 21, 0, 0);
const INVERTER = "SD2024G001";
const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";
const MINUTE = 60_000;

describe("simulator through the client: EV charger commands", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let owner: CloudClient;
  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: START });
    owner = sim.clientFor("owner");
  });
  afterAll(async () => {
    await sim.stop();
  });

  it("change-mode takes the charger's available modes and refuses others with -3", async () => {
    expect(await owner.evChargers.changeMode(CHARGER, "Boost")).toMatchObject({ ok: true, code: 0 });
    expect((await owner.evChargers.commandData(CHARGER, "change-mode")).active).toBe("Boost");
    expect(await owner.evChargers.changeMode(CHARGER, "ModbusSlave")).toMatchObject({
      ok: false,
      code: -3,
      mayHaveApplied: false,
    });
  });

  it("refuses out-of-bounds values with 422 before they reach the charger", async () => {
    const response = await owner.http.raw(
      {
        name: "Send Command",
        method: "POST",
        path: `/ev-charger/${CHARGER}/commands/adjust-charge-power-limit`,
        scopes: [],
        idempotent: false,
      },
      { body: { limit: 33 } },
    );
    expect(response.status).toBe(422);
    expect(Object.keys((response.body as { errors: object }).errors)).toEqual(["limit"]);
  });

  it("a command the charger does not support is refused with a NotSupported CallError", async () => {
    expect(await owner.evChargers.commands(CHARGER)).not.toContain("adjust-cp-voltage-range");
    const unsupported = await owner.evChargers.sendCommand(CHARGER, "adjust-cp-voltage-range", { min: 7.7, max: 10.4 });
    expect(unsupported).toMatchObject({ ok: false, code: -5, mayHaveApplied: false, error: { code: "NotSupported" } });
  });

  it("answers -2 while the charger is offline", async () => {
    await sim.admin(`/devices/${CHARGER}`, { offline: true });
    expect(await owner.evChargers.startCharge(CHARGER)).toMatchObject({ ok: false, code: -2 });
    expect((await owner.evChargers.get(CHARGER)).online).toBe(false);
    await sim.admin(`/devices/${CHARGER}`, { offline: false });
  });

  it("schedules: created inactive, activated, deleted", async () => {
    expect(
      await owner.evChargers.sendCommand(CHARGER, "set-schedule", {
        name: "Cheap night",
        periods: [{ start_time: "00:30", end_time: "04:30", limit: 16, days: [0, 1, 2, 3, 4, 5, 6] }],
      }),
    ).toMatchObject({ ok: true });
    const data = await owner.evChargers.commandData(CHARGER, "set-schedule");
    const schedule = data.schedules.find((s) => s.name === "Cheap night");
    expect(schedule?.is_active).toBe(false);
    expect(
      await owner.evChargers.sendCommand(CHARGER, "set-active-schedule", { schedule_id: String(schedule?.id) }),
    ).toMatchObject({
      ok: true,
    });
    const active = await owner.evChargers.commandData(CHARGER, "set-schedule");
    expect(active.schedules.find((s) => s.name === "Cheap night")?.is_active).toBe(true);
    expect(
      await owner.evChargers.sendCommand(CHARGER, "set-active-schedule", { schedule_id: "no-such-id" }),
    ).toMatchObject({
      ok: false,
      code: -3,
    });
    expect(await owner.evChargers.sendCommand(CHARGER, "delete-charging-profile", {})).toMatchObject({ ok: true });
    expect((await owner.evChargers.commandData(CHARGER, "set-schedule")).schedules).toEqual([]);
  });

  it("a session started and stopped through the API is recorded with who did it", async () => {
    // Wait (in simulated time) for the car to be plugged in.
    for (let i = 0; i < 24 * 60 && (await owner.evChargers.get(CHARGER)).status === "Available"; i += 10) {
      await sim.admin("/clock", { advance_ms: 10 * MINUTE });
    }
    const status = (await owner.evChargers.get(CHARGER)).status;
    expect(["Preparing", "Charging", "SuspendedEV", "SuspendedEVSE", "Finishing"]).toContain(status);
    if (status !== "Charging") expect(await owner.evChargers.startCharge(CHARGER)).toMatchObject({ ok: true });
    await sim.admin("/clock", { advance_ms: 30 * MINUTE });
    expect((await owner.evChargers.get(CHARGER)).status).toBe("Charging");
    expect(await owner.evChargers.stopCharge(CHARGER)).toMatchObject({ ok: true });
    await sim.admin("/clock", { advance_ms: MINUTE });
    const [latest] = await owner.evChargers.chargingSessions(CHARGER).all();
    expect(latest?.stop_reason).toBe("Remote");
    expect(latest?.stopped_by).toBe("1001");
    expect((latest?.meter_stop ?? 0) - (latest?.meter_start ?? 0)).toBeGreaterThan(0);
  });
});

describe("simulator physics over HTTP", () => {
  it("a timed-charge slot fills the battery from the grid to its limit and stops there", async () => {
    // 00:30 local time in winter: no sun, so every kWh into the battery comes from the grid.
    const sim = await startTestSimulator({ speed: 0, start: Date.UTC(2025, 0, 15, 0, 30, 0) });
    try {
      const owner = sim.clientFor("owner");
      await owner.inverterControl.writeSetting(INVERTER, 71, 4);
      const before = await owner.inverterData.meterDataLatest(INVERTER);
      const result = await owner.inverterControl.modifyPreset(INVERTER, "timed-charge", {
        enabled: true,
        slots: [{ start_time: "00:30", end_time: "05:30", percent_limit: 80 }],
      });
      expect(result.success).toBe(true);
      await sim.admin("/clock", { advance_ms: 5 * 60 * MINUTE });
      const live = await owner.inverterData.systemDataLatest(INVERTER);
      expect(live.battery?.percent).toBeGreaterThanOrEqual(79);
      expect(live.battery?.percent).toBeLessThanOrEqual(81);
      const after = await owner.inverterData.meterDataLatest(INVERTER);
      const acCharge = (after.today?.ac_charge ?? 0) - (before.today?.ac_charge ?? 0);
      const charged = (after.today?.battery?.charge ?? 0) - (before.today?.battery?.charge ?? 0);
      expect(acCharge).toBeGreaterThan(2);
      expect(Math.abs(acCharge - charged)).toBeLessThan(0.05);
      // Once full to the limit it stops: another hour adds nothing.
      await sim.admin("/clock", { advance_ms: 60 * MINUTE });
      const later = await owner.inverterData.meterDataLatest(INVERTER);
      expect((later.today?.ac_charge ?? 0) - (after.today?.ac_charge ?? 0)).toBeLessThan(0.05);
    } finally {
      await sim.stop();
    }
  });
});
