import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChangeApplied, changedDevice } from "../../src/control/index.js";
import { CHARGER, type GateSetup, INVERTER, startGate } from "./helpers/gate-setup.js";

describe("control gate: it tells what it did", () => {
  let setup: GateSetup;
  const told: ChangeApplied[] = [];
  let failListener = false;
  beforeAll(async () => {
    setup = await startGate({
      onApplied: (event) => {
        told.push(event);
        if (failListener) throw new Error("listener broke");
      },
    });
  });
  afterAll(async () => {
    await setup.stop();
  });

  it("tells once per request, applied, skipped, refused or failed, as the audit log recorded it", async () => {
    const requester = { via: "rule", name: "cheap night" } as const;
    const requests = [
      { kind: "setting", serial: INVERTER, settingId: 71, value: 22 },
      { kind: "setting", serial: INVERTER, settingId: 71, value: 22 },
      { kind: "setting", serial: INVERTER, settingId: 71, value: 2 },
      { kind: "setting", serial: "SD0000NONE", settingId: 71, value: 22 },
    ] as const;
    const outcomes = [];
    for (const request of requests) {
      const before = told.length;
      const { outcome } = await setup.apply(request, requester);
      expect(told.slice(before)).toHaveLength(1);
      const [row] = setup.store.audit.recent({ limit: 1 });
      expect(told.at(-1)).toEqual({ at: row?.at, request, requester, outcome });
      outcomes.push(outcome);
    }
    expect(outcomes.map((outcome) => [outcome.ok, outcome.skipped, outcome.refused === true])).toEqual([
      [true, false, false],
      [true, true, false],
      [false, false, true],
      [false, false, true],
    ]);

    await setup.sim.admin(`/devices/${CHARGER}`, { offline: true });
    try {
      const before = told.length;
      const { outcome } = await setup.apply({
        kind: "ev-command",
        uuid: CHARGER,
        command: "start-charge",
        request: {},
      });
      expect(outcome).toMatchObject({ ok: false, code: -2 });
      expect(told.slice(before).map((event) => event.outcome)).toEqual([outcome]);
    } finally {
      await setup.sim.admin(`/devices/${CHARGER}`, { offline: false });
    }
  });

  it("tells device actions too, so that a snapshot restored is shown", async () => {
    const requester = { via: "bridge", name: "snapshot" } as const;
    const before = told.length;
    const taken = await setup.gate.act({ kind: "snapshot", op: "take", serial: INVERTER, name: "told" }, requester);
    const restored = await setup.gate.act(
      { kind: "snapshot", op: "restore", serial: INVERTER, name: "told" },
      requester,
    );
    expect([taken.ok, restored.ok]).toEqual([true, true]);
    const events = told.slice(before);
    const [row] = setup.store.audit.recent({ limit: 1 });
    expect(events.map((event) => [event.action?.kind, event.action?.kind === "snapshot" && event.action.op])).toEqual([
      ["snapshot", "take"],
      ["snapshot", "restore"],
    ]);
    expect(events[1]).toMatchObject({ at: row?.at, requester, outcome: { ok: true, message: restored.message } });
    // Only the restore moved the inverter's controls: that is the one Home Assistant re-reads.
    expect(events.map(changedDevice)).toEqual([undefined, INVERTER]);
  });

  it("keeps a change and its audit row when a listener throws", async () => {
    failListener = true;
    try {
      const before = setup.auditCount();
      const { outcome } = await setup.apply({ kind: "setting", serial: INVERTER, settingId: 71, value: 23 });
      expect(outcome).toMatchObject({ ok: true, verified: true });
      expect(setup.auditCount()).toBe(before + 1);
      expect(setup.logs.some((line) => line.includes("a listener of applied changes failed"))).toBe(true);
    } finally {
      failListener = false;
    }
  });
});
