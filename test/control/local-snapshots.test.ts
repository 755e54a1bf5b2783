import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeviceAction } from "../../src/control/index.js";
import { INVERTER, type LocalGate, READ, startLocalGate, WRITE } from "./helpers/local-gate.js";

const RESERVE = 71;
const ECO = 24;
const requester = { via: "bridge" as const, name: "snapshot" };

/**
 * A device whose changes go over the LAN has the daemon's own snapshots: every listed setting read
 * and kept in SQLite, put back through the gate's setting path. The cloud's snapshots, which throw
 * here, are never asked.
 */
describe("control gate: the daemon's own snapshots, for a device changed over the LAN", () => {
  let setup: LocalGate;
  beforeAll(async () => {
    setup = await startLocalGate({ budget: 3 });
  });
  afterAll(async () => {
    await setup.stop();
  });

  async function act(action: DeviceAction) {
    const mark = setup.events.length;
    const outcome = await setup.gate.act(action, requester);
    return { outcome, requests: setup.events.slice(mark).map((event) => event.endpoint) };
  }
  const snapshot = (op: "take" | "restore" | "delete", name: string): DeviceAction => ({
    kind: "snapshot",
    op,
    serial: INVERTER,
    name,
  });

  it("takes one by reading every setting the device lists, kept in the store, audited", async () => {
    const taken = await act(snapshot("take", "before-evening"));
    expect(taken.outcome).toMatchObject({ ok: true });
    expect(taken.outcome.message).toMatch(/^snapshot before-evening taken \(\d+ settings, kept by energy2mqtt\)/);
    expect(new Set(taken.requests)).toEqual(new Set([READ]));
    const kept = setup.store.localSnapshots.get(INVERTER, "before-evening");
    expect(kept?.takenAt).toBe(setup.clock.now());
    expect(kept?.settings.find((one) => one.settingId === RESERVE)?.value).toBe(await setup.deviceValue(RESERVE));
    expect(kept?.settings.length).toBe(taken.requests.length);
    expect(setup.store.audit.recent({ target: INVERTER, limit: 1 })[0]).toMatchObject({
      action: "snapshot:take",
      ok: true,
      message: taken.outcome.message,
    });
    expect(setup.gate.localSnapshotExists(INVERTER, "before-evening")).toBe(true);
    expect(setup.gate.localSnapshotExists(INVERTER, "never-taken")).toBe(false);
  });

  it("restores after a restart: writes only the values that differ, each audited and counted as a restore, and says which", async () => {
    const reserve = Number(await setup.deviceValue(RESERVE));
    const eco = await setup.deviceValue(ECO);
    await setup.apply(setup.setting(RESERVE, reserve === 50 ? 51 : 50));
    await setup.apply(setup.setting(ECO, eco !== true && eco !== 1));
    await setup.apply(setup.setting(RESERVE, reserve === 60 ? 61 : 60));
    // The budget of 3 is spent: an ordinary change is refused, a restore still goes.
    expect((await setup.apply(setup.setting(RESERVE, 70))).outcome.refused).toBe(true);
    await setup.restart();

    const auditBefore = setup.store.audit.recent({ limit: 10_000 }).length;
    const restored = await act(snapshot("restore", "before-evening"));
    expect(restored.outcome.ok).toBe(true);
    const names = (ids: number[]) => ids.map((id) => setup.inverter.settings.find((one) => one.id === id)?.name);
    const [reserveName, ecoName] = names([RESERVE, ECO]);
    expect(restored.outcome.message).toMatch(/^snapshot before-evening restored: 2 restored \(.+\), \d+ unchanged$/);
    expect(restored.outcome.message).toContain(`${reserveName}`);
    expect(restored.outcome.message).toContain(`${ecoName}`);
    const data = restored.outcome.data as { restored: string[]; unchanged: string[]; failed: unknown[] };
    expect(new Set(data.restored)).toEqual(new Set([reserveName, ecoName]));
    expect(data.failed).toEqual([]);
    expect(restored.requests.filter((endpoint) => endpoint === WRITE)).toHaveLength(2);
    expect(await setup.deviceValue(RESERVE)).toBe(reserve);
    expect(await setup.deviceValue(ECO)).toBe(eco);
    // The snapshot's own row (begun first), and one per value put back, skipped or written.
    const all = setup.store.audit.recent({ limit: 10_000 });
    const rows = all.slice(0, all.length - auditBefore);
    expect(rows.filter((row) => row.action === "snapshot:restore")).toMatchObject([
      { ok: true, message: restored.outcome.message },
    ]);
    expect(rows.filter((row) => row.action.startsWith("setting:"))).toHaveLength(rows.length - 1);
    const written = rows.filter((row) => row.action.startsWith("setting:") && !row.skipped);
    expect(written.map((row) => row.action).sort()).toEqual([`setting:${ECO}`, `setting:${RESERVE}`].sort());
    expect(written.every((row) => row.ok && row.source === "bridge")).toBe(true);
    expect(setup.gate.writesToday()?.devices[INVERTER]).toBe(5);
    // Like the cloud's, a snapshot fully restored is gone.
    expect(setup.gate.localSnapshotExists(INVERTER, "before-evening")).toBe(false);
  });

  it("reports the values that failed, and keeps the snapshot for another try", async () => {
    expect((await act(snapshot("take", "offline-test"))).outcome.ok).toBe(true);
    const reserve = Number(await setup.deviceValue(RESERVE));
    const moved = await setup.apply(setup.setting(RESERVE, reserve === 45 ? 46 : 45), { via: "cli", restore: true });
    expect(moved.outcome.ok).toBe(true);
    await setup.sim.admin(`/devices/${INVERTER}`, { offline: true });
    try {
      const restored = await act(snapshot("restore", "offline-test"));
      expect(restored.outcome).toMatchObject({ ok: false, failure: "unconfirmed" });
      expect(restored.outcome.message).toMatch(
        /^snapshot offline-test not fully restored: .* failed \(.*\); it is kept$/,
      );
      expect((restored.outcome.data as { failed: unknown[] }).failed.length).toBeGreaterThan(0);
      expect(setup.gate.localSnapshotExists(INVERTER, "offline-test")).toBe(true);
    } finally {
      await setup.sim.admin(`/devices/${INVERTER}`, { offline: false });
    }
  });

  it("answers as the cloud does for a name taken or missing, deletes one, and checks names", async () => {
    const again = await act(snapshot("take", "offline-test"));
    expect(again.outcome).toMatchObject({ ok: false, failure: "invalid" });
    expect(again.requests).toEqual([]);
    const deleted = await act(snapshot("delete", "offline-test"));
    expect(deleted.outcome).toMatchObject({ ok: true, message: "snapshot offline-test deleted" });
    expect(setup.store.localSnapshots.get(INVERTER, "offline-test")).toBeUndefined();
    expect((await act(snapshot("delete", "offline-test"))).outcome).toMatchObject({ ok: false, failure: "not-found" });
    expect((await act(snapshot("restore", "offline-test"))).outcome).toMatchObject({ ok: false, failure: "not-found" });
    const long = await act(snapshot("take", "x".repeat(33)));
    expect(long.outcome).toMatchObject({ ok: false, refused: true });
    expect(long.outcome.message).toBe("Refused, nothing sent: a snapshot's name is 1 to 32 characters (got 33)");
    expect(long.requests).toEqual([]);
    expect((await act(snapshot("take", ""))).outcome.refused).toBe(true);
  });
});
