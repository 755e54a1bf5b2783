import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChangeRequest, ControlGate } from "../../src/control/index.js";
import { controlMapOf } from "../../src/local/index.js";
import type { SimDongle } from "../../src/simulator/local/dongle.js";
import { type LocalSource, localControl } from "../../src/sources/index.js";
import type { Inventory } from "../../src/sources/inventory.js";
import type { Store } from "../../src/store/index.js";
import { type LanGate, startLanGate } from "../helpers/lan-gate.js";
import { MIDDAY, startTestSimulator } from "../helpers/simulator.js";

/*
 * The control gate over the LAN: localControl against the simulator's dongles (TCP on
 * 127.0.0.1), whose writes change the same settings the simulator's cloud serves. The house
 * stands still (speed 0); the daemon's clock runs from MIDDAY in real time, so the sessions'
 * pacing and timeouts go on.
 */

const INVERTER = "SD2024G001";

let sim: Awaited<ReturnType<typeof startTestSimulator>>;
let lan: LanGate;
let source: LocalSource;
let inventory: Inventory;
let gate: ControlGate;
let store: Store;
let dongle: SimDongle;
const dir = mkdtempSync(join(tmpdir(), "e2m-lan-writes-"));

beforeAll(async () => {
  sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
  const found = sim.simulator.local?.find(INVERTER);
  if (!found) throw new Error(`no dongle for ${INVERTER}`);
  dongle = found;
  lan = await startLanGate({ ports: [dongle.port], dir, storeFile: "energy2mqtt.db", start: MIDDAY });
  ({ source, inventory, gate, store } = lan);
}, 30_000);

afterAll(async () => {
  lan?.close();
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const cloud = () => sim.clientFor("owner").inverterControl;
const writes = () => dongle.writesReceived.map((write) => [write.register, write.value]);

/** Applies a change through the gate and checks that it wrote exactly one audit row that matches it. */
async function apply(request: ChangeRequest) {
  const before = store.audit.recent({ limit: 10_000 }).length;
  const writesBefore = dongle.writesReceived.length;
  const outcome = await gate.apply(request, { via: "cli", name: "test" });
  expect(store.audit.recent({ limit: 10_000 })).toHaveLength(before + 1);
  expect(store.audit.recent({ limit: 1 })[0]).toMatchObject({
    source: "cli",
    ok: outcome.ok,
    skipped: outcome.skipped,
    message: outcome.message,
  });
  return { outcome, sent: dongle.writesReceived.slice(writesBefore).map((write) => [write.register, write.value]) };
}

describe("a LAN inverter's controls", () => {
  it("are the settings and presets its model offers, under the cloud's ids, names and rules", async () => {
    const inverter = inventory.inverters.find((one) => one.serial === INVERTER);
    expect(inverter).toMatchObject({ model: "Hybrid Gen1", controllable: true });
    // With its battery known (HR 55), the charge and discharge power limits (HR 111/112) are offered too.
    const offered = controlMapOf(
      { model: "Hybrid Gen1", armFirmware: 193 },
      { capacityKwh: inverter?.batteryCapacityKwh },
    );
    expect(inverter?.settings.map((setting) => setting.id).sort((a, b) => a - b)).toEqual(
      [...offered.settings.keys()].sort((a, b) => a - b),
    );
    const listed = await sim.clientFor("owner").inverterControl.settings(INVERTER);
    // The power limits are the register's (0-50 hundredths of C, in steps of capacity × 10 W), not
    // the cloud's 0-3600 W: the inverter itself holds the battery to its rating.
    const inRegisterSteps = new Set([72, 73]);
    for (const setting of inverter?.settings ?? []) {
      const cloud = listed.find((one) => one.id === setting.id);
      if (inRegisterSteps.has(setting.id)) expect(setting).toMatchObject({ id: cloud?.id, name: cloud?.name });
      else expect(setting).toEqual(cloud);
    }
    expect(inverter?.presets.map((preset) => preset.identifier)).toEqual([
      "eco-mode",
      "timed-charge",
      "timed-discharge",
      "timed-export",
      "battery-operating-range",
      // No pause registers (HR 318-320) nor discharge target (HR 272) on this model: both are the
      // daemon's, held through the battery power limits (src/control/pause-emulation.ts).
      "pause-battery",
    ]);
    const exporting = inverter?.presets.find((preset) => preset.identifier === "timed-export");
    expect(exporting?.parameters.discharge_target_percent?.validation).toEqual([
      "optional",
      "integer",
      "between:4,100",
    ]);
    expect(exporting?.parameters["slots.*.percent_limit"]).toBeUndefined();
  });
});

describe("the gate over the LAN", () => {
  it("writes the reserve over the LAN, and the cloud of the same house then reads the new value", async () => {
    const before = await cloud().readSetting(INVERTER, 71);
    const value = before.ok && before.value === 30 ? 31 : 30;
    const { outcome, sent } = await apply({ kind: "setting", serial: INVERTER, settingId: 71, value });
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(outcome.message).toBe(`Battery Reserve % Limit set to ${value}`);
    expect(sent).toEqual([[110, value]]);
    expect(await cloud().readSetting(INVERTER, 71)).toMatchObject({ ok: true, value });
    expect(dongle.writesReceived.at(-1)?.outcome).toBe("applied");
  });

  it("sends a write whose echo comes late once, counts it once, and finds it applied by reading it back (issue 35 item 4)", async () => {
    const before = await cloud().readSetting(INVERTER, 71);
    const value = before.ok && before.value === 32 ? 33 : 32;
    const counted = gate.writesToday()?.devices[INVERTER] ?? 0;
    await sim.admin(`/dongles/${INVERTER}`, { echo_delay_s: 6 });
    try {
      const { outcome, sent } = await apply({ kind: "setting", serial: INVERTER, settingId: 71, value });
      // One frame on the wire: the session waited for the echo past its 5 s and never sent it again.
      expect(sent).toEqual([[110, value]]);
      expect(outcome).toMatchObject({ ok: true, verified: true });
      expect(gate.writesToday()?.devices[INVERTER]).toBe(counted + 1);
    } finally {
      await sim.admin(`/dongles/${INVERTER}`, { echo_delay_s: 0 });
      sim.simulator.clock.advance(6_000);
    }
    expect(await cloud().readSetting(INVERTER, 71)).toMatchObject({ ok: true, value });
  }, 30_000);

  it("writes only on change: the same value again sends nothing to the dongle", async () => {
    await apply({ kind: "setting", serial: INVERTER, settingId: 77, value: 85 });
    const again = await apply({ kind: "setting", serial: INVERTER, settingId: 77, value: 85 });
    expect(again.outcome).toMatchObject({ ok: true, skipped: true });
    expect(again.sent).toEqual([]);
  });

  it("sets a timed-charge window over the LAN as register writes, and the cloud reads the same preset", async () => {
    const { outcome, sent } = await apply({
      kind: "preset",
      serial: INVERTER,
      preset: "timed-charge",
      fields: { enabled: true, slots: { 1: { start_time: "01:30", end_time: "04:30" } } },
    });
    expect(outcome).toMatchObject({ ok: true, verified: true });
    // Only what differed, in the preset's order: the slot's times, then the switch.
    expect(sent.filter(([register]) => register !== 96)).toEqual([
      [94, 130],
      [95, 430],
    ]);
    const values = await cloud().presetValues(INVERTER, "timed-charge");
    expect(values.enabled).toBe(true);
    expect((values.slots as Record<string, unknown>[])[0]).toMatchObject({ start_time: "01:30", end_time: "04:30" });
  });

  it("sends a preset that is already so as nothing: every field read back equal, no write", async () => {
    const { outcome, sent } = await apply({
      kind: "preset",
      serial: INVERTER,
      preset: "timed-charge",
      fields: { enabled: true, slots: { 1: { start_time: "01:30", end_time: "04:30" } } },
    });
    expect(outcome).toMatchObject({ ok: true });
    expect(sent).toEqual([]);
  });

  it("clears the window over the LAN: the switch off first, then the slots to 00:00", async () => {
    const { outcome, sent } = await apply({
      kind: "preset",
      serial: INVERTER,
      preset: "timed-charge",
      fields: { enabled: false },
    });
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(sent[0]).toEqual([96, 0]);
    expect(sent).toContainEqual([94, 0]);
    expect(sent).toContainEqual([95, 0]);
    expect(await cloud().presetValues(INVERTER, "timed-charge")).toMatchObject({ enabled: false });
  });

  it("refuses, audited and unsent, a setting the model has no register for", async () => {
    const { outcome, sent } = await apply({ kind: "setting", serial: INVERTER, settingId: 96, value: 1 });
    expect(outcome).toMatchObject({ ok: false });
    expect(outcome.message).toMatch(/setting 96 is not one inverter SD2024G001 lists/);
    expect(sent).toEqual([]);
  });

  it("refuses, audited and unsent, a value outside the setting's rules", async () => {
    const { outcome, sent } = await apply({ kind: "setting", serial: INVERTER, settingId: 71, value: 2 });
    expect(outcome).toMatchObject({ ok: false });
    expect(outcome.message).toBe(
      "Refused, nothing sent: Battery Reserve % Limit must be between 4 and 100 (allowed: a number between 4 and 100)",
    );
    expect(sent).toEqual([]);
  });

  it("refuses, audited and unsent, a slot field the model has no register for, and reads nothing back", async () => {
    // What one read of the preset's values costs on the wire: the gate reads them once before a change.
    const beforeRead = dongle.stats.requests;
    await lan.gate.reads.inverters.readPreset(INVERTER, "timed-charge");
    const oneRead = dongle.stats.requests - beforeRead;
    expect(oneRead).toBeGreaterThan(0);
    const asked = dongle.stats.requests;
    const { outcome, sent } = await apply({
      kind: "preset",
      serial: INVERTER,
      preset: "timed-charge",
      fields: { slots: { 1: { percent_limit: 80 } } },
    });
    expect(outcome).toMatchObject({ ok: false });
    expect(outcome.message).toMatch(
      /percent_limit of slot 1 has no register on the Hybrid Gen1: send the slot without it, or over the cloud/,
    );
    expect(sent).toEqual([]);
    // Refused before anything was sent: nothing can have applied, so nothing is read back (issue 36).
    expect(outcome.message).not.toMatch(/may or may not/);
    expect(dongle.stats.requests - asked).toBeLessThanOrEqual(oneRead);
  });
});

describe("what never leaves the process", () => {
  it("a write to a register outside the allowlist, or a destructive one: refused before it is framed", async () => {
    const lan = source.dongleOf(INVERTER);
    const model = lan?.model;
    if (!lan || !model) throw new Error("no dongle");
    const map = controlMapOf(model);
    const before = dongle.stats.writes;
    await expect(lan.writeHolding(map, 162, 1)).rejects.toThrow(
      /holding register 162 \(the energy-total reset \(destructive\)\) is never written over the LAN/,
    );
    await expect(lan.writeHolding(map, 5004, 1)).rejects.toThrow(/factory-defaults restore/);
    await expect(lan.writeHolding(map, 246, 100)).rejects.toThrow(/not in the Hybrid Gen1's allowlist/);
    expect(dongle.stats.writes).toBe(before);
    expect(writes()).not.toContainEqual([162, 1]);
  });

  it("what only the cloud has is refused by the LAN path, saying so", async () => {
    const control = localControl({ dongleOf: (serial) => source.dongleOf(serial), answerMs: 12_000 });
    await expect(control.cloudOnly.evChargers.status("any")).rejects.toThrow(/only the cloud has EV chargers/);
    await expect(control.cloudOnly.presetProfiles.list(INVERTER)).rejects.toThrow(/only the cloud has preset profiles/);
    await expect(control.cloudOnly.snapshots.take(INVERTER, "x")).rejects.toThrow(/the daemon keeps its own snapshots/);
    expect(control.pathOf(INVERTER)).toBe("local");
    await expect(control.inverters.readPreset(INVERTER, "grid-settings")).rejects.toThrow(
      /preset grid-settings is not offered over the LAN on the Hybrid Gen1 SD2024G001/,
    );
    // The pause the daemon holds: the path reads only the limits; its slot is the gate's to add.
    expect(await control.inverters.readPreset(INVERTER, "pause-battery")).toEqual({
      mode: 0,
      start_time: null,
      end_time: null,
    });
  });
});
