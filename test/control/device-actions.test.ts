import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeviceAction } from "../../src/control/index.js";
import { EMS_CHILD, type GateSetup, INVERTER, startGate } from "./helpers/gate-setup.js";

/** Snapshots, preset profiles and notifications go through the gate: sent to the simulator, each one audited. */
describe("control gate: device actions", () => {
  let setup: GateSetup;
  const requester = { via: "bridge" as const, name: "snapshot/take" };
  beforeAll(async () => {
    setup = await startGate();
  });
  afterAll(async () => {
    await setup.stop();
  });

  async function act(action: DeviceAction) {
    const before = setup.auditCount();
    const outcome = await setup.gate.act(action, requester);
    expect(setup.auditCount()).toBe(before + 1);
    const [row] = setup.store.audit.recent({ limit: 1 });
    return { outcome, row };
  }

  it("takes, restores and deletes a snapshot on the device, one audit row each", async () => {
    const taken = await act({ kind: "snapshot", op: "take", serial: INVERTER, name: "before-test" });
    expect(taken.outcome).toMatchObject({ ok: true, message: "snapshot before-test taken" });
    expect(taken.row).toMatchObject({ source: "bridge", target: INVERTER, action: "snapshot:take", ok: true });
    expect(await setup.checker.snapshots.exists(INVERTER, "before-test")).toBe(true);

    const restored = await act({ kind: "snapshot", op: "restore", serial: INVERTER, name: "before-test" });
    expect(restored.outcome.ok).toBe(true);
    expect(restored.row).toMatchObject({ action: "snapshot:restore", ok: true });
    // A restore that succeeds deletes the snapshot (api-reference).
    expect(await setup.checker.snapshots.exists(INVERTER, "before-test")).toBe(false);

    await act({ kind: "snapshot", op: "take", serial: INVERTER, name: "before-test" });
    const deleted = await act({ kind: "snapshot", op: "delete", serial: INVERTER, name: "before-test" });
    expect(deleted.row).toMatchObject({ action: "snapshot:delete", ok: true });
    expect(await setup.checker.snapshots.exists(INVERTER, "before-test")).toBe(false);
  });

  it("says why a snapshot failed, in a form the restore acts on: a name already taken, one that is gone", async () => {
    await act({ kind: "snapshot", op: "take", serial: INVERTER, name: "twice" });
    const again = await act({ kind: "snapshot", op: "take", serial: INVERTER, name: "twice" });
    expect(again.outcome).toMatchObject({ ok: false, failure: "invalid" });
    expect(again.row).toMatchObject({ ok: false, message: again.outcome.message });
    const gone = await act({ kind: "snapshot", op: "restore", serial: INVERTER, name: "never-taken" });
    expect(gone.outcome).toMatchObject({ ok: false, failure: "not-found" });
  });

  it("passes a profile's preset on as asked: one that profiles do not take is refused before it is sent", async () => {
    const refused = await act({
      kind: "preset-profile",
      op: "create",
      serial: INVERTER,
      profile: { name: "reset", preset: "reset-to-defaults" },
    });
    expect(refused.outcome).toMatchObject({
      ok: false,
      message: expect.stringContaining("invalid request, not sent: preset:"),
    });
    expect(refused.outcome.failure).toBeUndefined();
    expect(refused.row).toMatchObject({ action: "preset-profile:create", ok: false, message: refused.outcome.message });
  });

  it("refuses, and audits, a snapshot of an inverter the account does not have or that its EMS controls", async () => {
    const mark = setup.events.length;
    const unknown = await act({ kind: "snapshot", op: "take", serial: "XX0000X000", name: "nope" });
    expect(unknown.outcome).toMatchObject({ ok: false, refused: true });
    expect(unknown.outcome.message).toBe("Refused, nothing sent: inverter XX0000X000 is not one this account has");
    expect(unknown.row).toMatchObject({ target: "XX0000X000", ok: false, message: unknown.outcome.message });
    const child = await act({ kind: "snapshot", op: "take", serial: EMS_CHILD, name: "nope" });
    expect(child.outcome.refused).toBe(true);
    expect(child.outcome.message).toContain("control it through the EMS");
    expect(setup.events.slice(mark)).toEqual([]);
  });

  it("applies a preset profile and sends a notification through the gate, audited with the cloud's answer", async () => {
    const created = await act({
      kind: "preset-profile",
      op: "create",
      serial: INVERTER,
      profile: { name: "winter", preset: "timed-charge" },
    });
    expect(created.row).toMatchObject({ action: "preset-profile:create", ok: created.outcome.ok });
    const applied = await act({ kind: "preset-profile", op: "apply", serial: INVERTER, request: { name: "winter" } });
    expect(applied.row).toMatchObject({ action: "preset-profile:apply", ok: applied.outcome.ok });
    expect(created.outcome.ok && applied.outcome.ok).toBe(true);
    const sent = await act({
      kind: "notification",
      notification: { platforms: ["push"], title: "t", body: "b", icon: "mdi:flash" },
    });
    expect(sent.row).toMatchObject({ targetKind: "account", action: "notification:send", ok: sent.outcome.ok });
  });
});
