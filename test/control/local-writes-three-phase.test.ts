import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChangeRequest } from "../../src/control/index.js";
import type { SimDongle } from "../../src/simulator/local/dongle.js";
import { loadScenario } from "../../src/simulator/scenario/load.js";
import { withoutRandomFaults } from "../helpers/calm-scenario.js";
import { type LanGate, startLanGate } from "../helpers/lan-gate.js";
import { MIDDAY, startTestSimulator } from "../helpers/simulator.js";

/*
 * The three-phase's battery power rates and timed export over the LAN: the control gate against
 * the simulator's three-phase house, each change audited, sent as the register writes the public
 * map names (HR 1110/1108, HR 1118/1119, HR 1122) and read back by the simulator's cloud.
 */

const INVERTER = "ST2024G001";

let sim: Awaited<ReturnType<typeof startTestSimulator>>;
let lan: LanGate;
let dongle: SimDongle;
const dir = mkdtempSync(join(tmpdir(), "e2m-lan-3ph-"));

beforeAll(async () => {
  sim = await startTestSimulator({
    scenario: withoutRandomFaults(loadScenario("three-phase")),
    speed: 0,
    start: MIDDAY,
    localPort: 0,
    localResponseDelayMs: 0,
  });
  const found = sim.simulator.local?.find(INVERTER);
  if (!found) throw new Error(`no dongle for ${INVERTER}`);
  dongle = found;
  lan = await startLanGate({ ports: [dongle.port], dir, storeFile: "energy2mqtt.db", start: MIDDAY });
}, 30_000);

afterAll(async () => {
  lan?.close();
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const cloud = () => sim.clientFor("owner").inverterControl;

/** Applies a change through the gate: its outcome, the writes it sent, and the one audit row it left. */
async function apply(request: ChangeRequest) {
  const before = lan.store.audit.recent({ limit: 10_000 }).length;
  const writesBefore = dongle.writesReceived.length;
  const outcome = await lan.gate.apply(request, { via: "cli", name: "test" });
  const rows = lan.store.audit.recent({ limit: 10_000 });
  expect(rows).toHaveLength(before + 1);
  expect(rows[0]).toMatchObject({ source: "cli", ok: outcome.ok, target: INVERTER });
  return { outcome, sent: dongle.writesReceived.slice(writesBefore).map((write) => [write.register, write.value]) };
}

describe("the three-phase over the LAN", () => {
  it("knows its battery's size from its stack and offers the power rates and timed export, not eco", () => {
    const inverter = lan.inventory.inverters.find((one) => one.serial === INVERTER);
    expect(inverter).toMatchObject({ model: "Three-phase hybrid", controllable: true });
    // The simulated stack: 10.2 kWh usable at 0.9 depth, 24.6 Ah through six 76.8 V modules.
    expect(inverter?.batteryCapacityKwh).toBe(11.3);
    const ids = inverter?.settings.map((setting) => setting.id) ?? [];
    expect(ids).toEqual(expect.arrayContaining([56, 72, 73]));
    expect(ids).not.toContain(24);
    const presets = inverter?.presets.map((preset) => preset.identifier) ?? [];
    expect(presets).toEqual(expect.arrayContaining(["timed-export", "battery-operating-range"]));
    expect(presets).not.toContain("eco-mode");
    expect(presets).not.toContain("timed-discharge");
  });

  it("sets the charge power rate as its percentage (HR 1110), verified, and the cloud reads the watts", async () => {
    const before = await cloud().readSetting(INVERTER, 72);
    const value = before.ok && before.value === 2400 ? 3600 : 2400;
    const { outcome, sent } = await apply({ kind: "setting", serial: INVERTER, settingId: 72, value });
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(sent).toEqual([[1110, value / 120]]);
    expect(await cloud().readSetting(INVERTER, 72)).toMatchObject({ ok: true, value });
  });

  it("refuses a discharge rate above six modules' 12 kW before anything is sent", async () => {
    const { outcome, sent } = await apply({ kind: "setting", serial: INVERTER, settingId: 73, value: 12_120 });
    expect(outcome.ok).toBe(false);
    expect(sent).toEqual([]);
  });

  it("switches timed export on with its slot (HR 1118/1119, HR 1122) and off again, each read back", async () => {
    const on = await apply({
      kind: "preset",
      serial: INVERTER,
      preset: "timed-export",
      fields: { enabled: true, slots: { 1: { start_time: "16:30", end_time: "19:00" } } },
    });
    expect(on.outcome).toMatchObject({ ok: true, verified: true });
    expect(on.sent).toEqual(
      expect.arrayContaining([
        [1118, 1630],
        [1119, 1900],
        [1122, 1],
      ]),
    );
    expect(on.sent.at(-1)).toEqual([1122, 1]);
    expect(await cloud().readSetting(INVERTER, 56)).toMatchObject({ ok: true, value: true });
    expect(await cloud().readSetting(INVERTER, 53)).toMatchObject({ ok: true, value: "16:30" });

    const off = await apply({ kind: "preset", serial: INVERTER, preset: "timed-export", fields: { enabled: false } });
    expect(off.outcome).toMatchObject({ ok: true, verified: true });
    expect(off.sent[0]).toEqual([1122, 0]);
    expect(await cloud().readSetting(INVERTER, 56)).toMatchObject({ ok: true, value: false });
  });
});
