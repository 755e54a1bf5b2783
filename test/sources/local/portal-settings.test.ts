import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlGate } from "../../../src/control/index.js";
import { controlMapOf } from "../../../src/local/index.js";
import type { SimDongle } from "../../../src/simulator/local/dongle.js";
import { cloudControl, type LocalSource, localControl } from "../../../src/sources/index.js";
import type { Inventory } from "../../../src/sources/inventory.js";
import { inverterDevice } from "../../control/helpers/devices.js";
import { type LanGate, startLanGate } from "../../helpers/lan-gate.js";
import { MIDDAY, startTestSimulator } from "../../helpers/simulator.js";

/*
 * What only the vendor's portal used to change (docs/portal-settings.md): the export limit over
 * the LAN, the cloud's grid-settings preset on a model whose public map has export-limit registers
 * (the three-phase hybrid, HR 1102/1103), and on one that has none (a single-phase hybrid), where
 * it is not offered and nothing reaches the dongle; and EPS (setting 271), over the LAN on an
 * AC-coupled unit (HR 317) and over the cloud, on one inverter that both paths see.
 */

type Sim = Awaited<ReturnType<typeof startTestSimulator>>;

interface Side {
  readonly sim: Sim;
  readonly dongle: SimDongle;
  readonly source: LocalSource;
  readonly inventory: Inventory;
  readonly gate: ControlGate;
  readonly serial: string;
}

const sides: Side[] = [];
const lans: LanGate[] = [];
const dir = mkdtempSync(join(tmpdir(), "e2m-export-limit-"));

async function side(scenario: string): Promise<Side> {
  const sim = await startTestSimulator({ scenario, speed: 0, start: MIDDAY, localPort: 0, localResponseDelayMs: 0 });
  const dongle = sim.simulator.local?.dongles[0];
  if (!dongle) throw new Error(`no dongle in ${scenario}`);
  const lan = await startLanGate({ ports: [dongle.port], dir, storeFile: `${scenario}.db`, start: MIDDAY });
  lans.push(lan);
  const { source, inventory, gate } = lan;
  const made = { sim, dongle, source, inventory, gate, serial: dongle.chain.deviceSerial };
  sides.push(made);
  return made;
}

let threePhase: Side;
let hybrid: Side;
let acCoupled: Side;
/** The gate over the cloud to the AC-coupled unit, auditing into the same store as its LAN gate. */
let cloudGate: ControlGate;

beforeAll(async () => {
  threePhase = await side("three-phase");
  hybrid = await side("hybrid");
  acCoupled = await side("ac-coupled");
  const lan = lans[2];
  if (!lan) throw new Error("the AC-coupled unit's LAN gate did not start");
  const client = acCoupled.sim.clientFor("owner");
  const device = await inverterDevice(client, acCoupled.serial);
  cloudGate = new ControlGate({
    clock: lan.clock,
    control: cloudControl(client),
    audit: lan.store.audit,
    devices: { inverter: (serial) => (serial === device.serial ? device : undefined), charger: () => undefined },
    logger: pino({ level: "silent" }),
  });
}, 30_000);

afterAll(async () => {
  for (const one of sides) {
    await one.sim.stop();
  }
  for (const lan of lans) lan.close();
  rmSync(dir, { recursive: true, force: true });
});

const who = { via: "cli", name: "test" } as const;

describe("the export limit on a three-phase hybrid over the LAN", () => {
  it("offers grid-settings with the cloud's parameters, the limit's range the register's (0-60000 W), not the cloud's", async () => {
    const lan = threePhase.inventory.inverters[0]?.presets.find((preset) => preset.identifier === "grid-settings");
    const cloud = (await threePhase.sim.clientFor("owner").inverterControl.presets(threePhase.serial)).find(
      (preset) => preset.identifier === "grid-settings",
    );
    expect(cloud?.parameters.export_limit_watts?.validation).toContain("between:0,3600");
    expect(lan?.parameters).toEqual({
      ...cloud?.parameters,
      export_limit_watts: {
        ...cloud?.parameters.export_limit_watts,
        validation: ["optional", "integer", "between:0,60000"],
      },
    });
  });

  it("writes the limit (HR 1102) and its switch (HR 1103) through the gate, which the cloud then reads", async () => {
    const outcome = await threePhase.gate.apply(
      {
        kind: "preset",
        serial: threePhase.serial,
        preset: "grid-settings",
        fields: { export_limit_enabled: true, export_limit_watts: 3000 },
      },
      who,
    );
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(threePhase.dongle.writesReceived.map((write) => [write.register, write.value, write.outcome])).toEqual([
      [1103, 1, "applied"],
      [1102, 3000, "applied"],
    ]);
    expect(
      await threePhase.sim.clientFor("owner").inverterControl.presetValues(threePhase.serial, "grid-settings"),
    ).toEqual({ export_limit_enabled: true, export_limit_watts: 3000 });
  });

  it("takes a limit above the cloud's 3600 W as the register does (a real three-phase holds 17000)", async () => {
    const sent = threePhase.dongle.writesReceived.length;
    const outcome = await threePhase.gate.apply(
      { kind: "preset", serial: threePhase.serial, preset: "grid-settings", fields: { export_limit_watts: 17_000 } },
      who,
    );
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(threePhase.dongle.writesReceived.slice(sent).map((write) => [write.register, write.value])).toEqual([
      [1102, 17_000],
    ]);
  });

  it("refuses a limit outside the register's range before anything is sent", async () => {
    const sent = threePhase.dongle.writesReceived.length;
    const outcome = await threePhase.gate.apply(
      { kind: "preset", serial: threePhase.serial, preset: "grid-settings", fields: { export_limit_watts: 60_001 } },
      who,
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/export_limit_watts/);
    expect(threePhase.dongle.writesReceived.length).toBe(sent);
  });
});

describe("the export limit on a single-phase hybrid, whose public map has no register for it", () => {
  it("is not offered, and the gate refuses it, audited, with nothing framed", async () => {
    const inverter = hybrid.inventory.inverters[0];
    expect(inverter?.presets.map((preset) => preset.identifier)).not.toContain("grid-settings");
    const outcome = await hybrid.gate.apply(
      { kind: "preset", serial: hybrid.serial, preset: "grid-settings", fields: { export_limit_watts: 3000 } },
      who,
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/grid-settings/);
    expect(hybrid.dongle.writesReceived).toEqual([]);
    expect(lans[1]?.store.audit.recent({ limit: 1 })[0]).toMatchObject({ ok: false, message: outcome.message });
  });

  it("refuses the preset and a write to the three-phase export registers in localControl itself, never framed", async () => {
    const lan = localControl({ dongleOf: (serial) => hybrid.source.dongleOf(serial), answerMs: 12_000 });
    expect(await lan.inverters.applyPreset(hybrid.serial, "grid-settings", { export_limit_watts: 3000 })).toEqual({
      outcome: "refused",
      reason: `preset grid-settings is not offered over the LAN on the Hybrid Gen1 ${hybrid.serial}`,
    });
    const dongle = hybrid.source.dongleOf(hybrid.serial);
    const detected = dongle?.model;
    if (!dongle || !detected) throw new Error("the hybrid's dongle was not discovered");
    await expect(dongle.writeHolding(controlMapOf(detected), 1102, 3000)).rejects.toThrow(
      /holding register 1102 is not in the Hybrid Gen1's allowlist/,
    );
    expect(hybrid.dongle.writesReceived).toEqual([]);
    expect(hybrid.dongle.stats.writes).toBe(0);
  });
});

const EPS = 271;

describe("EPS on an AC-coupled unit (setting 271: HR 317 over the LAN, the setting's ID over the cloud)", () => {
  const cloud = () => acCoupled.sim.clientFor("owner").inverterControl;
  const lanReads = () => localControl({ dongleOf: (serial) => acCoupled.source.dongleOf(serial), answerMs: 12_000 });
  const audit = () => lans[2]?.store.audit.recent({ limit: 1 })[0];

  it("is offered over the LAN as the cloud lists it, a switch (its rules: boolean)", async () => {
    const lan = acCoupled.inventory.inverters[0]?.settings.find((setting) => setting.id === EPS);
    const listed = (await cloud().settings(acCoupled.serial)).find((setting) => setting.id === EPS);
    expect(listed).toMatchObject({ name: "Enable EPS", validation_rules: ["boolean"] });
    expect(lan).toMatchObject({ id: EPS, name: "Enable EPS", validation_rules: ["boolean"] });
  });

  it("switches EPS on over the LAN (HR 317 = 1), read back, audited; the cloud then reads it on", async () => {
    expect(await cloud().readSetting(acCoupled.serial, EPS)).toMatchObject({ ok: true, value: false });
    const outcome = await acCoupled.gate.apply(
      { kind: "setting", serial: acCoupled.serial, settingId: EPS, value: true },
      who,
    );
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(acCoupled.dongle.writesReceived.map((write) => [write.register, write.value, write.outcome])).toEqual([
      [317, 1, "applied"],
    ]);
    expect(audit()).toMatchObject({ ok: true, action: `setting:${EPS}`, target: acCoupled.serial, verified: true });
    expect(await cloud().readSetting(acCoupled.serial, EPS)).toMatchObject({ ok: true, value: true });
  });

  it("switches EPS off over the cloud, read back, audited; the LAN then reads HR 317 as off, and no register was written", async () => {
    const sent = acCoupled.dongle.writesReceived.length;
    const outcome = await cloudGate.apply(
      { kind: "setting", serial: acCoupled.serial, settingId: EPS, value: false },
      who,
    );
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(audit()).toMatchObject({ ok: true, action: `setting:${EPS}`, target: acCoupled.serial, verified: true });
    expect(await lanReads().inverters.readSetting(acCoupled.serial, EPS)).toEqual({ outcome: "done", value: false });
    expect(acCoupled.dongle.writesReceived.length).toBe(sent);
  });

  it("refuses a value that is not on or off on either path, audited, with nothing sent", async () => {
    const sent = acCoupled.dongle.writesReceived.length;
    for (const gate of [acCoupled.gate, cloudGate]) {
      const outcome = await gate.apply({ kind: "setting", serial: acCoupled.serial, settingId: EPS, value: 2 }, who);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(/true or false/);
      expect(audit()).toMatchObject({ ok: false, message: outcome.message });
    }
    expect(acCoupled.dongle.writesReceived.length).toBe(sent);
    expect(await cloud().readSetting(acCoupled.serial, EPS)).toMatchObject({ ok: true, value: false });
  });
});

describe("EPS on a single-phase hybrid, whose public map has no register for it", () => {
  it("is not offered over the LAN, and the gate refuses it with nothing framed", async () => {
    expect(hybrid.inventory.inverters[0]?.settings.map((setting) => setting.id)).not.toContain(EPS);
    const sent = hybrid.dongle.writesReceived.length;
    const outcome = await hybrid.gate.apply(
      { kind: "setting", serial: hybrid.serial, settingId: EPS, value: true },
      who,
    );
    expect(outcome.ok).toBe(false);
    expect(hybrid.dongle.writesReceived.length).toBe(sent);
    const dongle = hybrid.source.dongleOf(hybrid.serial);
    const detected = dongle?.model;
    if (!dongle || !detected) throw new Error("the hybrid's dongle was not discovered");
    await expect(dongle.writeHolding(controlMapOf(detected), 317, 1)).rejects.toThrow(
      /holding register 317 is not in the Hybrid Gen1's allowlist/,
    );
    expect(hybrid.dongle.writesReceived.length).toBe(sent);
  });
});
