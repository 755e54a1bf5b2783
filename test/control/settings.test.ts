import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMS_CHILD, type GateSetup, INVERTER, startGate } from "./helpers/gate-setup.js";

const WRITE = "Modify Setting";
const READ = "Read Setting";

describe("control gate: settings", () => {
  let setup: GateSetup;
  beforeAll(async () => {
    setup = await startGate();
  });
  afterAll(async () => {
    await setup.stop();
  });

  const simulatorValue = async (settingId: number): Promise<unknown> => {
    const read = await setup.checker.inverterControl.readSetting(INVERTER, settingId);
    return read.ok ? read.value : `code ${read.code}`;
  };

  it("writes a valid value once and reports it verified", async () => {
    const { outcome, requests } = await setup.apply(
      { kind: "setting", serial: INVERTER, settingId: 71, value: 37 },
      { via: "mqtt", name: "number.battery_reserve" },
    );
    expect(outcome).toEqual({
      ok: true,
      verified: true,
      skipped: false,
      value: 37,
      message: "Battery Reserve % Limit set to 37",
    });
    expect(requests).toEqual([WRITE]);
    expect(await simulatorValue(71)).toBe(37);
    const [row] = setup.store.audit.recent({ target: INVERTER, limit: 1 });
    expect(row).toMatchObject({
      source: "mqtt",
      requesterName: "number.battery_reserve",
      targetKind: "inverter",
      target: INVERTER,
      action: "setting:71",
      request: { kind: "setting", serial: INVERTER, settingId: 71, value: 37 },
    });
  });

  it("refuses a value that breaks the setting's rules, sends nothing, and says what is allowed", async () => {
    const { outcome, requests } = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 71, value: 3 });
    expect(requests).toEqual([]);
    expect(outcome).toMatchObject({ ok: false, verified: false, skipped: false });
    expect(outcome.message).toBe(
      "Refused, nothing sent: Battery Reserve % Limit must be between 4 and 100 (allowed: a number between 4 and 100)",
    );
    expect(setup.store.audit.recent({ limit: 1 })[0]).toMatchObject({ ok: false, message: outcome.message });
    expect(await simulatorValue(71)).toBe(37);
  });

  it("skips a write that would change nothing", async () => {
    const { outcome, requests } = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 71, value: "37" });
    expect(requests).toEqual([]);
    expect(outcome).toMatchObject({ ok: true, verified: true, skipped: true, value: 37 });
    expect(outcome.message).toBe("Battery Reserve % Limit is already 37: nothing sent");
  });

  it("skips by values fed from elsewhere, booleans and HH:mm:ss times included", async () => {
    setup.gate.remember({ kind: "setting", serial: INVERTER, settingId: 24, value: 1 });
    setup.gate.remember({ kind: "setting", serial: INVERTER, settingId: 64, value: "05:30:00" });
    const eco = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 24, value: true });
    const time = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 64, value: "05:30" });
    expect([eco.requests, time.requests]).toEqual([[], []]);
    expect([eco.outcome.skipped, time.outcome.skipped]).toEqual([true, true]);
  });

  it("writes a time given with seconds as HH:mm", async () => {
    const { outcome, requests } = await setup.apply({
      kind: "setting",
      serial: INVERTER,
      settingId: 65,
      value: "04:15:00",
    });
    expect(requests).toEqual([WRITE]);
    expect(outcome).toMatchObject({ ok: true, verified: true });
    expect(await simulatorValue(65)).toBe("04:15");
  });

  it("refuses a setting the inverter does not list", async () => {
    const { outcome, requests } = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 9999, value: 1 });
    expect(requests).toEqual([]);
    expect(outcome.message).toBe(`Refused, nothing sent: setting 9999 is not one inverter ${INVERTER} lists`);
  });

  it("refuses an inverter of an EMS plant, pointing at the EMS", async () => {
    const { outcome, requests } = await setup.apply({ kind: "setting", serial: EMS_CHILD, settingId: 71, value: 20 });
    expect(requests).toEqual([]);
    expect(outcome).toMatchObject({ ok: false, skipped: false });
    expect(outcome.message).toContain("part of the EMS plant EM2024E001: control it through the EMS");
  });

  it("refuses an inverter the account does not have", async () => {
    const { outcome, requests } = await setup.apply({
      kind: "setting",
      serial: "SX0000NONE",
      settingId: 71,
      value: 20,
    });
    expect(requests).toEqual([]);
    expect(outcome.message).toBe("Refused, nothing sent: inverter SX0000NONE is not one this account has");
  });

  it("after a timeout (-1) writes once, reads back once, and follows what the read-back says", async () => {
    const seen = new Set<boolean>();
    for (let attempt = 0; attempt < 8 && seen.size < 2; attempt++) {
      const wanted = 1000 + attempt * 100;
      await setup.sim.admin(`/devices/${INVERTER}`, { timeouts: 1 });
      const { outcome, requests } = await setup.apply({
        kind: "setting",
        serial: INVERTER,
        settingId: 72,
        value: wanted,
      });
      expect(requests).toEqual([WRITE, READ]);
      const actual = await simulatorValue(72);
      expect(outcome.code).toBe(-1);
      expect(outcome.ok).toBe(actual === wanted);
      expect(outcome.verified).toBe(actual === wanted);
      expect(outcome.value).toBe(actual);
      expect(outcome.message).toContain("reading it back");
      seen.add(outcome.ok);
    }
    // The simulator applies a timed-out write half of the time; both ways were seen.
    expect(seen).toEqual(new Set([true, false]));
  });

  it("says the change may or may not have happened when the read-back fails too", async () => {
    await setup.sim.admin(`/devices/${INVERTER}`, { timeouts: 2 });
    const { outcome, requests } = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 72, value: 2222 });
    expect(requests).toEqual([WRITE, READ]);
    expect(outcome).toMatchObject({ ok: false, verified: false, code: -1 });
    expect(outcome.message).toContain("the change may or may not have happened");
  });

  it("reads back after a 502 on the write, and never writes twice", async () => {
    const before = await simulatorValue(71);
    await setup.sim.admin("/errors", { status: 502, count: 1 });
    const { outcome, requests } = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 71, value: 44 });
    expect(requests).toEqual([WRITE, READ]);
    expect(outcome).toMatchObject({ ok: false, verified: false, value: before });
    expect(outcome.message).toContain("(502)");
    expect(outcome.message).toContain(`reading it back shows ${String(before)}`);
  });

  it("answers -2 while the inverter is offline, without reading back", async () => {
    await setup.sim.admin(`/devices/${INVERTER}`, { offline: true });
    try {
      const { outcome, requests } = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 71, value: 45 });
      expect(requests).toEqual([WRITE]);
      expect(outcome).toMatchObject({ ok: false, code: -2, verified: false, skipped: false });
      expect(outcome.message).toContain("the device is offline (code -2)");
      expect(outcome.message).toContain("try again when it is back online");
    } finally {
      await setup.sim.admin(`/devices/${INVERTER}`, { offline: false });
    }
  });

  it("answers -7 while the inverter is locked", async () => {
    await setup.sim.admin(`/devices/${INVERTER}`, { locked: true });
    try {
      const { outcome, requests } = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 71, value: 45 });
      expect(requests).toEqual([WRITE]);
      expect(outcome).toMatchObject({ ok: false, code: -7 });
      expect(outcome.message).toContain("locked");
    } finally {
      await setup.sim.admin(`/devices/${INVERTER}`, { locked: false });
    }
  });

  it("never skips a write-only setting, and cannot read one back after a timeout", async () => {
    const first = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 83, value: 100 });
    const again = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 83, value: 100 });
    expect([first.requests, again.requests]).toEqual([[WRITE], [WRITE]]);
    expect(again.outcome).toMatchObject({ ok: true, skipped: false });
    await setup.sim.admin(`/devices/${INVERTER}`, { timeouts: 1 });
    const timedOut = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 83, value: 100 });
    expect(timedOut.requests).toEqual([WRITE]);
    expect(timedOut.outcome).toMatchObject({ ok: false, code: -1, verified: false });
    expect(timedOut.outcome.message).toContain("may or may not have happened (it cannot be read back)");
  });

  it("never logs the API token", () => {
    const token = setup.sim.simulator.tokens.owner ?? "";
    expect(token.length).toBeGreaterThan(0);
    expect(setup.logs.length).toBeGreaterThan(0);
    expect(setup.logs.join("\n")).not.toContain(token);
  });
});
