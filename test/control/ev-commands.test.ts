import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHARGER, type GateSetup, startGate } from "./helpers/gate-setup.js";

const SEND = "Send Command";
const DATA = "Get Command Data";

describe("control gate: EV charger commands", () => {
  let setup: GateSetup;
  beforeAll(async () => {
    setup = await startGate();
  });
  afterAll(async () => {
    await setup.stop();
  });

  it("passes on the charger's -3 for a mode it does not offer", async () => {
    const { available } = await setup.checker.evChargers.commandData(CHARGER, "change-mode");
    expect(available).not.toContain("ModbusSlave");
    const { outcome, requests } = await setup.apply({
      kind: "ev-command",
      uuid: CHARGER,
      command: "change-mode",
      request: { mode: "ModbusSlave" },
    });
    expect(requests).toEqual([SEND]);
    expect(outcome).toMatchObject({ ok: false, code: -3, verified: false, skipped: false });
    expect(outcome.message).toContain("not available in configuration mode");
  });

  it("refuses a mode the charger's command data does not offer, once that data is known, and sends nothing", async () => {
    const data = await setup.checker.evChargers.commandData(CHARGER, "change-mode");
    expect(data.available).not.toContain("ModbusSlave");
    setup.gate.remember({ kind: "ev-command", uuid: CHARGER, command: "change-mode", data });
    const { outcome, requests } = await setup.apply({
      kind: "ev-command",
      uuid: CHARGER,
      command: "change-mode",
      request: { mode: "ModbusSlave" },
    });
    expect(requests).toEqual([]);
    expect(outcome).toMatchObject({ ok: false, refused: true, verified: false, skipped: false });
    expect(outcome.message).toContain(`offers the modes ${data.available.join(", ")}; not ModbusSlave`);
  });

  it("changes the mode and verifies it from the command data", async () => {
    const { active, available } = await setup.checker.evChargers.commandData(CHARGER, "change-mode");
    const mode = available.find((candidate) => candidate !== active) ?? "Boost";
    const { outcome, requests } = await setup.apply({
      kind: "ev-command",
      uuid: CHARGER,
      command: "change-mode",
      request: { mode },
    });
    expect(requests).toEqual([SEND, DATA]);
    expect(outcome).toMatchObject({ ok: true, verified: true, code: 0, value: mode });
    expect((await setup.checker.evChargers.commandData(CHARGER, "change-mode")).active).toBe(mode);
  });

  it("refuses a charge power limit of 40 A locally, saying what is allowed", async () => {
    const { outcome, requests } = await setup.apply({
      kind: "ev-command",
      uuid: CHARGER,
      command: "adjust-charge-power-limit",
      request: { limit: 40 },
    });
    expect(requests).toEqual([]);
    expect(outcome).toMatchObject({ ok: false, verified: false });
    expect(outcome.message).toBe(
      "Refused, nothing sent: adjust-charge-power-limit: limit must be a number between 6 and 32",
    );
  });

  it("sets a charge power limit and verifies it", async () => {
    const { outcome, requests } = await setup.apply({
      kind: "ev-command",
      uuid: CHARGER,
      command: "adjust-charge-power-limit",
      request: { limit: 16 },
    });
    expect(requests).toEqual([SEND, DATA]);
    expect(outcome).toMatchObject({ ok: true, verified: true, value: 16 });
  });

  it("refuses a command the charger does not support", async () => {
    const { outcome, requests } = await setup.apply({
      kind: "ev-command",
      uuid: CHARGER,
      command: "adjust-cp-voltage-range",
      request: { min: 7.7, max: 10.4 },
    });
    expect(requests).toEqual([]);
    expect(outcome.message).toBe(
      `Refused, nothing sent: Driveway (${CHARGER}) does not support adjust-cp-voltage-range`,
    );
  });

  it("after a timeout reads the mode back once and follows it", async () => {
    const { active, available } = await setup.checker.evChargers.commandData(CHARGER, "change-mode");
    const mode = available.find((candidate) => candidate !== active) ?? "Boost";
    await setup.sim.admin(`/devices/${CHARGER}`, { timeouts: 1 });
    const { outcome, requests } = await setup.apply({
      kind: "ev-command",
      uuid: CHARGER,
      command: "change-mode",
      request: { mode },
    });
    expect(requests).toEqual([SEND, DATA]);
    const now = (await setup.checker.evChargers.commandData(CHARGER, "change-mode")).active;
    expect(outcome).toMatchObject({ code: -1, ok: now === mode, verified: now === mode, value: now });
  });

  it("reports a command it cannot read back after a timeout as uncertain", async () => {
    await setup.sim.admin(`/devices/${CHARGER}`, { timeouts: 1 });
    const { outcome, requests } = await setup.apply({
      kind: "ev-command",
      uuid: CHARGER,
      command: "set-plug-and-go",
      request: { enabled: true },
    });
    expect(requests).toEqual([SEND]);
    expect(outcome).toMatchObject({ ok: false, code: -1, verified: false });
    expect(outcome.message).toContain("the change may or may not have happened");
  });

  it("answers -2 for an offline charger", async () => {
    await setup.sim.admin(`/devices/${CHARGER}`, { offline: true });
    try {
      const { outcome, requests } = await setup.apply({
        kind: "ev-command",
        uuid: CHARGER,
        command: "stop-charge",
        request: {},
      });
      expect(requests).toEqual([SEND]);
      expect(outcome).toMatchObject({ ok: false, code: -2 });
    } finally {
      await setup.sim.admin(`/devices/${CHARGER}`, { offline: false });
    }
  });
});
