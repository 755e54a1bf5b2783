import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlGate } from "../../../src/control/index.js";
import { cloudControl, type LocalSource, localControl } from "../../../src/sources/index.js";
import type { Inventory } from "../../../src/sources/inventory.js";
import { childSlotWarnings } from "../../../src/sources/local/ems-children.js";
import type { Store } from "../../../src/store/index.js";
import { inverterDevice } from "../../control/helpers/devices.js";
import { type LanGate, startLanGate } from "../../helpers/lan-gate.js";
import { MIDDAY, startTestSimulator } from "../../helpers/simulator.js";

/*
 * An EMS plant over the LAN: the demo house's EMS and its two inverters, each on its own
 * simulated dongle. Control goes to the EMS's own registers, never to the children's slots.
 */

const EMS = "EM2024E001";
const CHILDREN = ["SE2024G101", "SE2024G102"];

let sim: Awaited<ReturnType<typeof startTestSimulator>>;
let lan: LanGate;
let source: LocalSource;
let inventory: Inventory;
let gate: ControlGate;
let store: Store;
const dir = mkdtempSync(join(tmpdir(), "e2m-ems-lan-"));

const dongle = (serial: string) => {
  const found = sim.simulator.local?.find(serial);
  if (!found) throw new Error(`no dongle for ${serial}`);
  return found;
};

beforeAll(async () => {
  sim = await startTestSimulator({ speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
  // One child leaves its own slots to the EMS (00:00-23:59); the other keeps the factory's.
  const cloud = sim.clientFor("owner").inverterControl;
  for (const [id, value] of [
    [64, "00:00"],
    [65, "23:59"],
    [53, "00:00"],
    [54, "23:59"],
  ] as const)
    expect(await cloud.writeSetting(CHILDREN[0] ?? "", id, value)).toMatchObject({ ok: true });
  lan = await startLanGate({
    ports: [EMS, ...CHILDREN].map((serial) => dongle(serial).port),
    dir,
    storeFile: "energy2mqtt.db",
    start: MIDDAY,
  });
  ({ source, inventory, gate, store } = lan);
}, 30_000);

afterAll(async () => {
  lan?.close();
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("an EMS plant over the LAN", () => {
  it("offers the EMS's own slots, and none of its inverters' settings", () => {
    const ems = inventory.ems.find((one) => one.serial === EMS);
    expect(ems).toMatchObject({ controllable: true });
    expect(ems?.settings.map((setting) => setting.id).sort((a, b) => a - b)).toEqual(
      [41, 42, 53, 54, 64, 65, 101, 102, 103, 104, 105, 106, 107, 129, 130, 131, 132, 133].sort((a, b) => a - b),
    );
    for (const serial of CHILDREN) {
      expect(inventory.inverters.find((one) => one.serial === serial)).toMatchObject({
        emsSerial: EMS,
        controllable: false,
        noControlReason: `inverter ${serial} is run by its EMS ${EMS}: change the EMS's slots, never the inverter's own`,
        settings: [],
        presets: [],
      });
    }
  });

  it("writes a plant discharge slot to the EMS's registers (HR 2044/2045), which the cloud then reads; the children get nothing", async () => {
    const before = CHILDREN.map((serial) => dongle(serial).stats.writes);
    const start = await gate.apply(
      { kind: "setting", serial: EMS, settingId: 53, value: "16:00" },
      { via: "cli", name: "test" },
    );
    const end = await gate.apply(
      { kind: "setting", serial: EMS, settingId: 54, value: "19:30" },
      { via: "cli", name: "test" },
    );
    expect(start).toMatchObject({ ok: true, verified: true });
    expect(end).toMatchObject({ ok: true, verified: true });
    expect(dongle(EMS).writesReceived.map((write) => [write.register, write.value, write.outcome])).toEqual([
      [2044, 1600, "applied"],
      [2045, 1930, "applied"],
    ]);
    const cloud = sim.clientFor("owner").inverterControl;
    expect(await cloud.readSetting(EMS, 53)).toMatchObject({ ok: true, value: "16:00" });
    expect(await cloud.readSetting(EMS, 54)).toMatchObject({ ok: true, value: "19:30" });
    expect(CHILDREN.map((serial) => dongle(serial).stats.writes)).toEqual(before);
  });

  it("lists the plant's enable and export limit as the cloud's presets, the limit's range the register's", async () => {
    const ems = inventory.ems.find((one) => one.serial === EMS);
    const cloudPresets = await sim.clientFor("owner").inverterControl.presets(EMS);
    const lan = (identifier: string) => ems?.presets.find((preset) => preset.identifier === identifier);
    const cloud = (identifier: string) => cloudPresets.find((preset) => preset.identifier === identifier);
    expect(lan("plant-ems-enable-control")?.parameters).toEqual(cloud("plant-ems-enable-control")?.parameters);
    // The EMS holds its export limit (HR 2071) but has no switch for it: only the watts are offered,
    // up to what the register holds, not the cloud's 3600 W (a real EMS holds 9500).
    expect(lan("grid-settings")?.parameters).toEqual({
      export_limit_watts: {
        ...cloud("grid-settings")?.parameters.export_limit_watts,
        validation: ["optional", "integer", "between:0,65535"],
      },
    });
  });

  it("switches the plant's EMS control on over the LAN (HR 2040), which the cloud's preset then reads; the children get nothing", async () => {
    const before = CHILDREN.map((serial) => dongle(serial).stats.writes);
    const sent = dongle(EMS).writesReceived.length;
    const outcome = await gate.apply(
      { kind: "preset", serial: EMS, preset: "plant-ems-enable-control", fields: { enabled: true } },
      { via: "cli", name: "test" },
    );
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(
      dongle(EMS)
        .writesReceived.slice(sent)
        .map((write) => [write.register, write.value, write.outcome]),
    ).toEqual([[2040, 1, "applied"]]);
    const cloud = sim.clientFor("owner").inverterControl;
    expect(await cloud.presetValues(EMS, "plant-ems-enable-control")).toMatchObject({ enabled: true });
    expect(CHILDREN.map((serial) => dongle(serial).stats.writes)).toEqual(before);
  });

  it("sets the plant's export limit over the LAN (HR 2071), which the cloud's grid settings then read", async () => {
    const sent = dongle(EMS).writesReceived.length;
    const outcome = await gate.apply(
      { kind: "preset", serial: EMS, preset: "grid-settings", fields: { export_limit_watts: 2500 } },
      { via: "cli", name: "test" },
    );
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(
      dongle(EMS)
        .writesReceived.slice(sent)
        .map((write) => [write.register, write.value]),
    ).toEqual([[2071, 2500]]);
    const cloud = sim.clientFor("owner").inverterControl;
    expect(await cloud.presetValues(EMS, "grid-settings")).toMatchObject({ export_limit_watts: 2500 });
  });

  it("reads over the LAN what the cloud set: the plant switched off there shows as off here", async () => {
    const cloud = sim.clientFor("owner").inverterControl;
    expect(await cloud.modifyPreset(EMS, "plant-ems-enable-control", { enabled: false })).toMatchObject({
      success: true,
    });
    const lan = localControl({ dongleOf: (serial) => source.dongleOf(serial), answerMs: 12_000 });
    expect(await lan.inverters.readPreset(EMS, "plant-ems-enable-control")).toEqual({ enabled: false });
    expect(await lan.inverters.readPreset(EMS, "grid-settings")).toEqual({ export_limit_watts: 2500 });
  });

  it("offers the EMS's own slots as the cloud's timed presets, three of each, with the cloud's parameters' rules", async () => {
    const ems = inventory.ems.find((one) => one.serial === EMS);
    const cloudPresets = await sim.clientFor("owner").inverterControl.presets(EMS);
    const rules = (parameters: Record<string, { validation: readonly string[] }> | undefined) =>
      Object.fromEntries(Object.entries(parameters ?? {}).map(([key, parameter]) => [key, parameter.validation]));
    for (const identifier of ["timed-charge", "timed-discharge", "timed-export"]) {
      const lan = ems?.presets.find((preset) => preset.identifier === identifier);
      const cloud = cloudPresets.find((preset) => preset.identifier === identifier);
      expect(lan?.parameters.slots?.validation, identifier).toEqual(["optional", "array", "max:3"]);
      expect(rules(lan?.parameters), identifier).toEqual(rules(cloud?.parameters));
    }
  });

  it("sets an export slot over the LAN (HR 2062-2064), which the cloud's timed-export then reads; clears it again", async () => {
    const sent = dongle(EMS).writesReceived.length;
    const cloud = sim.clientFor("owner").inverterControl;
    const outcome = await gate.apply(
      {
        kind: "preset",
        serial: EMS,
        preset: "timed-export",
        fields: { enabled: true, slots: { 1: { start_time: "17:00", end_time: "19:00", percent_limit: 30 } } },
      },
      { via: "cli", name: "test" },
    );
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(
      dongle(EMS)
        .writesReceived.slice(sent)
        .map((write) => [write.register, write.value]),
    ).toEqual([
      [2062, 1700],
      [2063, 1900],
      [2064, 30],
    ]);
    const values = await cloud.presetValues(EMS, "timed-export");
    expect(values.enabled).toBe(true);
    expect((values.slots as Record<string, unknown>[])[0]).toEqual({
      start_time: "17:00",
      end_time: "19:00",
      percent_limit: 30,
    });
    // The EMS has no export switch: off clears its slots, and the cloud reads it off.
    const off = await gate.apply(
      { kind: "preset", serial: EMS, preset: "timed-export", fields: { enabled: false } },
      { via: "cli", name: "test" },
    );
    expect(off).toMatchObject({ ok: true });
    expect(await cloud.presetValues(EMS, "timed-export")).toMatchObject({ enabled: false });
  });

  it("reads a charge slot the cloud set through its timed-charge as the same preset over the LAN", async () => {
    const cloud = sim.clientFor("owner").inverterControl;
    expect(
      await cloud.modifyPreset(EMS, "timed-charge", {
        enabled: true,
        slots: { 2: { start_time: "02:00", end_time: "05:00", percent_limit: 90 } },
      }),
    ).toMatchObject({ success: true });
    const lan = localControl({ dongleOf: (serial) => source.dongleOf(serial), answerMs: 12_000 });
    expect(await lan.inverters.readPreset(EMS, "timed-charge")).toEqual(await cloud.presetValues(EMS, "timed-charge"));
  });

  it("refuses, audited and unframed, an export slot the EMS does not have", async () => {
    const sent = dongle(EMS).writesReceived.length;
    const outcome = await gate.apply(
      {
        kind: "preset",
        serial: EMS,
        preset: "timed-export",
        fields: { slots: { 4: { start_time: "17:00", end_time: "19:00" } } },
      },
      { via: "cli", name: "test" },
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toContain(
      "slots must be keyed by slot numbers from 1 to 3 (Timed Export has 3); 4 is not one",
    );
    expect(dongle(EMS).writesReceived.length).toBe(sent);
  });

  it("refuses, audited and unframed, an export limit beyond what HR 2071 holds", async () => {
    const sent = dongle(EMS).writesReceived.length;
    const outcome = await gate.apply(
      { kind: "preset", serial: EMS, preset: "grid-settings", fields: { export_limit_watts: 65_536 } },
      { via: "cli", name: "test" },
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/export_limit_watts/);
    expect(dongle(EMS).writesReceived.length).toBe(sent);
    expect(store.audit.recent({ limit: 1 })[0]).toMatchObject({ ok: false, message: outcome.message });
    const lanPath = localControl({ dongleOf: (serial) => source.dongleOf(serial), answerMs: 12_000 });
    expect(await lanPath.inverters.readPreset(EMS, "grid-settings")).toEqual({ export_limit_watts: 2500 });
  });

  it("sets the plant's export limit over the cloud's grid settings too, audited, which HR 2071 then holds", async () => {
    const client = sim.clientFor("owner");
    const device = await inverterDevice(client, EMS);
    const cloudGate = new ControlGate({
      clock: lan.clock,
      control: cloudControl(client),
      audit: store.audit,
      devices: { inverter: (serial) => (serial === EMS ? device : undefined), charger: () => undefined },
      logger: pino({ level: "silent" }),
    });
    const sent = dongle(EMS).writesReceived.length;
    const outcome = await cloudGate.apply(
      { kind: "preset", serial: EMS, preset: "grid-settings", fields: { export_limit_watts: 3000 } },
      { via: "cli", name: "test" },
    );
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(store.audit.recent({ limit: 1 })[0]).toMatchObject({
      ok: true,
      target: EMS,
      action: "preset:grid-settings",
    });
    const lanPath = localControl({ dongleOf: (serial) => source.dongleOf(serial), answerMs: 12_000 });
    expect(await lanPath.inverters.readPreset(EMS, "grid-settings")).toEqual({ export_limit_watts: 3000 });
    expect(dongle(EMS).writesReceived.length).toBe(sent);
    // Put back as the tests after this one expect it.
    expect(await client.inverterControl.modifyPreset(EMS, "grid-settings", { export_limit_watts: 2500 })).toMatchObject(
      {
        success: true,
      },
    );
  });

  it("writes only on change: the plant's export limit sent again as it is sends nothing", async () => {
    const sent = dongle(EMS).writesReceived.length;
    const outcome = await gate.apply(
      { kind: "preset", serial: EMS, preset: "grid-settings", fields: { export_limit_watts: 2500 } },
      { via: "cli", name: "test" },
    );
    expect(outcome).toMatchObject({ ok: true });
    expect(dongle(EMS).writesReceived.length).toBe(sent);
  });

  it("refuses, audited and unframed, an export-limit switch the EMS has no register for", async () => {
    const sent = dongle(EMS).writesReceived.length;
    const outcome = await gate.apply(
      { kind: "preset", serial: EMS, preset: "grid-settings", fields: { export_limit_enabled: true } },
      { via: "cli", name: "test" },
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/export_limit_enabled/);
    expect(dongle(EMS).writesReceived.length).toBe(sent);
    expect(store.audit.recent({ limit: 1 })[0]).toMatchObject({ ok: false, message: outcome.message });
  });

  it("refuses a change to an EMS's inverter, audited, with what to change instead", async () => {
    const outcome = await gate.apply(
      { kind: "setting", serial: "SE2024G102", settingId: 71, value: 20 },
      { via: "cli", name: "test" },
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toContain("is run by its EMS EM2024E001");
    expect(dongle("SE2024G102").stats.writes).toBe(0);
    expect(store.audit.recent({ limit: 1 })[0]).toMatchObject({ ok: false, message: outcome.message });
  });

  it("warns of the inverter whose own slot 1 would override the EMS, saying what to change; not of the one left to it", () => {
    expect(source.warnings.some((warning) => warning.includes(CHILDREN[0] ?? ""))).toBe(false);
    const second = source.warnings.filter((warning) => warning.includes("SE2024G102"));
    expect(second.length).toBeGreaterThan(0);
    for (const warning of second) expect(warning).toMatch(/which overrides the EMS's plan; set it to 00:00-23:59/);
  });
});

describe("the slot-1 check of an EMS's inverter", () => {
  it("passes 00:00-23:59 and names each other window with the settings and registers to change", () => {
    const words = (charge: [number, number], discharge: [number, number]) =>
      new Map([
        [94, charge[0]],
        [95, charge[1]],
        [56, discharge[0]],
        [57, discharge[1]],
      ]);
    expect(childSlotWarnings("SE1", "EM1", words([0, 2359], [0, 2359]))).toEqual([]);
    expect(childSlotWarnings("SE1", "EM1", words([0, 2359], [0, 1900]))).toEqual([
      "inverter SE1 under EMS EM1: its own DC discharge slot 1 is 00:00-19:00, which overrides the EMS's plan; set it to 00:00-23:59 (settings 53/54, holding registers 56/57) on the inverter, and change the EMS's slots instead",
    ]);
    expect(childSlotWarnings("SE1", "EM1", words([130, 430], [0, 2359]))[0]).toContain(
      "its own AC charge slot 1 is 01:30-04:30",
    );
  });
});
