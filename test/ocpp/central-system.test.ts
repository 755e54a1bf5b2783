import { createRPCError, type RPCClient } from "ocpp-rpc";
import { afterEach, describe, expect, it } from "vitest";
import { OcppCommandError } from "../../src/ocpp/index.js";
import { openStore } from "../../src/store/index.js";
import { CHARGE_POINTS, chargePoint, type Harness, START, startHarness, until } from "./helpers.js";

const [CP1] = CHARGE_POINTS;
const HOUR = 3_600_000;
let harness: Harness | undefined;
const clients: RPCClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close({ force: true });
  await harness?.stop();
  harness = undefined;
});

async function connect(h: Harness, id: string = CP1.id, password: string = CP1.password): Promise<RPCClient> {
  const client = chargePoint(h.central.port, id, password);
  clients.push(client);
  await client.connect();
  await until(() => h.central.connected(id));
  return client;
}

describe("the OCPP central system, with ocpp-rpc's client as the charge point", () => {
  it("runs a session: boot, heartbeat, status, authorise, start, meter values, stop, kept in SQLite", async () => {
    harness = await startHarness();
    const h = harness;
    const cp = await connect(h);
    expect(h.events[0]).toEqual({ kind: "connected", id: "CP1", at: START });

    const boot = await cp.call("BootNotification", {
      chargePointVendor: "Acme",
      chargePointModel: "Wallbox 7",
      chargePointSerialNumber: "AC-0001",
      firmwareVersion: "1.2.3",
    });
    expect(boot).toEqual({ status: "Accepted", currentTime: "2026-06-21T12:00:00Z", interval: 30 });

    h.clock.advance(30_000);
    expect(await cp.call("Heartbeat", {})).toEqual({ currentTime: "2026-06-21T12:00:30Z" });
    expect(await cp.call("StatusNotification", { connectorId: 1, errorCode: "NoError", status: "Preparing" })).toEqual(
      {},
    );
    expect(await cp.call("Authorize", { idTag: "TAG-OK" })).toEqual({ idTagInfo: { status: "Accepted" } });
    expect(await cp.call("Authorize", { idTag: "TAG-STRANGER" })).toEqual({ idTagInfo: { status: "Invalid" } });

    const started = await cp.call("StartTransaction", {
      connectorId: 1,
      idTag: "TAG-OK",
      meterStart: 1_000,
      timestamp: "2026-06-21T12:00:30Z",
    });
    expect(started).toEqual({ idTagInfo: { status: "Accepted" }, transactionId: 1 });

    h.clock.advance(HOUR / 2);
    await cp.call("MeterValues", {
      connectorId: 1,
      transactionId: 1,
      meterValue: [
        {
          timestamp: "2026-06-21T12:30:30Z",
          sampledValue: [
            { value: "7.2", measurand: "Power.Active.Import", unit: "kW" },
            { value: "31.5", measurand: "Current.Import", unit: "A", phase: "L1" },
            { value: "32", measurand: "Current.Import", unit: "A", phase: "L2" },
            { value: "30.9", measurand: "Current.Import", unit: "A", phase: "L3" },
            { value: "4600", measurand: "Energy.Active.Import.Register", unit: "Wh" },
            { value: "55", measurand: "SoC", unit: "Percent", location: "EV" },
          ],
        },
      ],
    });

    h.clock.advance(HOUR / 2);
    expect(
      await cp.call("StopTransaction", {
        transactionId: 1,
        idTag: "TAG-OK",
        meterStop: 8_400,
        timestamp: "2026-06-21T13:00:30Z",
        reason: "EVDisconnected",
      }),
    ).toEqual({ idTagInfo: { status: "Accepted" } });

    const session = {
      id: 1,
      chargePoint: "CP1",
      connectorId: 1,
      idTag: "TAG-OK",
      startedAt: START + 30_000,
      meterStartWh: 1_000,
    };
    const stopped = {
      ...session,
      stoppedAt: START + 30_000 + HOUR,
      meterStopWh: 8_400,
      energyKwh: 7.4,
      stopReason: "EVDisconnected",
    };
    expect(h.events).toEqual([
      { kind: "connected", id: "CP1", at: START },
      { kind: "boot", id: "CP1", at: START, vendor: "Acme", model: "Wallbox 7", serial: "AC-0001", firmware: "1.2.3" },
      { kind: "heartbeat", id: "CP1", at: START + 30_000 },
      { kind: "status", id: "CP1", at: START + 30_000, connectorId: 1, status: "Preparing", errorCode: "NoError" },
      { kind: "session", id: "CP1", at: START + 30_000, session },
      {
        kind: "meter",
        id: "CP1",
        at: START + 30_000 + HOUR / 2,
        connectorId: 1,
        transactionId: 1,
        powerW: 7_200,
        currentA: 32,
        energyKwh: 4.6,
        socPercent: 55,
      },
      { kind: "session", id: "CP1", at: START + 30_000 + HOUR, session: stopped },
    ]);

    // The session is in the SQLite file, as another connection reads it.
    const other = openStore(h.dbPath);
    expect(other.ocppSessions.recent(5)).toEqual([stopped]);
    other.close();
    expect(h.logText()).not.toContain(CP1.password);
  });

  it("never gives a transaction id twice, across a restart of the central system", async () => {
    harness = await startHarness({ authorisation: { policy: "accept_all" } });
    const cp = await connect(harness);
    const start = { connectorId: 1, idTag: "ANY", meterStart: 0, timestamp: "2026-06-21T12:00:00Z" };
    expect(await cp.call("StartTransaction", start)).toEqual({ idTagInfo: { status: "Accepted" }, transactionId: 1 });
    await cp.call("StopTransaction", { transactionId: 1, meterStop: 10, timestamp: "2026-06-21T12:00:00Z" });
    await cp.close();
    harness = await harness.restart();
    const again = await connect(harness);
    expect(await again.call("StartTransaction", start)).toEqual({
      idTagInfo: { status: "Accepted" },
      transactionId: 2,
    });
    // A refused tag still gets its transaction (the charge point stops it itself), and an id.
    harness = await harness.restart();
    const third = await connect(harness);
    expect(await third.call("StartTransaction", { ...start, connectorId: 2, idTag: "SOMEONE" })).toMatchObject({
      idTagInfo: { status: "Accepted" },
      transactionId: 3,
    });
  });

  it("closes a session whose StopTransaction was lost when the connector starts another", async () => {
    harness = await startHarness();
    const cp = await connect(harness);
    const start = { connectorId: 1, idTag: "TAG-OK", meterStart: 0, timestamp: "2026-06-21T12:00:00Z" };
    await cp.call("StartTransaction", start);
    harness.clock.advance(HOUR);
    expect(await cp.call("StartTransaction", { ...start, meterStart: 500 })).toMatchObject({ transactionId: 2 });
    expect(harness.store.ocppSessions.get(1)).toMatchObject({ stoppedAt: START + HOUR, stopReason: "Superseded" });
    expect(harness.store.ocppSessions.get(1)?.energyKwh).toBeUndefined();
    expect(harness.store.ocppSessions.openOf("CP1", 1)?.id).toBe(2);
  });

  it("reads a stop's transactionData as meter values, and answers a stop of a transaction it never started", async () => {
    harness = await startHarness({ authorisation: { policy: "accept_all" } });
    const h = harness;
    const cp = await connect(h);
    await cp.call("StartTransaction", {
      connectorId: 2,
      idTag: "ANY",
      meterStart: 0,
      timestamp: "2026-06-21T12:00:00Z",
    });
    h.clock.advance(HOUR);
    await cp.call("StopTransaction", {
      transactionId: 1,
      meterStop: 5_000,
      timestamp: "2026-06-21T13:00:00Z",
      transactionData: [
        { timestamp: "2026-06-21T13:00:00Z", sampledValue: [{ value: "5", unit: "kWh", context: "Transaction.End" }] },
      ],
    });
    expect(h.events.filter((e) => e.kind === "meter")).toEqual([
      { kind: "meter", id: "CP1", at: START + HOUR, connectorId: 2, transactionId: 1, energyKwh: 5 },
    ]);
    const before = h.events.length;
    expect(
      await cp.call("StopTransaction", {
        transactionId: 42,
        idTag: "ANY",
        meterStop: 1,
        timestamp: "2026-06-21T13:00:00Z",
      }),
    ).toEqual({ idTagInfo: { status: "Accepted" } });
    expect(h.events.length).toBe(before);
    expect(h.log().some((line) => line.level === 40 && line.msg.includes("stopped transaction 42"))).toBe(true);
    expect(h.store.ocppSessions.get(42)).toBeUndefined();
  });

  it("sends each command and resolves with the charge point's answer", async () => {
    harness = await startHarness();
    const h = harness;
    const cp = await connect(h);
    const received: { action: string; params: unknown }[] = [];
    const answer = (action: string, reply: Record<string, unknown>) =>
      cp.handle(action, async ({ params }: { params?: unknown }) => {
        received.push({ action, params });
        return reply;
      });
    answer("RemoteStartTransaction", { status: "Accepted" });
    answer("RemoteStopTransaction", { status: "Rejected" });
    answer("SetChargingProfile", { status: "Accepted" });
    answer("ClearChargingProfile", { status: "Unknown" });
    answer("ChangeAvailability", { status: "Scheduled" });
    answer("Reset", { status: "Accepted" });
    answer("TriggerMessage", { status: "NotImplemented" });
    answer("UnlockConnector", { status: "Unlocked" });

    const c = h.central;
    expect(await c.remoteStart("CP1", { idTag: "TAG-OK", connectorId: 1, limitA: 16 })).toBe("Accepted");
    expect(await c.remoteStart("CP1", { idTag: "TAG-OK" })).toBe("Accepted");
    expect(await c.remoteStop("CP1", 7)).toBe("Rejected");
    expect(await c.setCurrentLimit("CP1", { limitA: 10.04, purpose: "TxDefaultProfile" })).toBe("Accepted");
    expect(await c.setCurrentLimit("CP1", { limitA: 6, purpose: "TxProfile", transactionId: 7 })).toBe("Accepted");
    expect(await c.clearCurrentLimit("CP1")).toBe("Unknown");
    expect(await c.clearCurrentLimit("CP1", { purpose: "TxProfile", connectorId: 1 })).toBe("Unknown");
    expect(await c.changeAvailability("CP1", { connectorId: 0, type: "Inoperative" })).toBe("Scheduled");
    expect(await c.reset("CP1")).toBe("Accepted");
    expect(await c.triggerMessage("CP1", { requestedMessage: "MeterValues", connectorId: 1 })).toBe("NotImplemented");
    expect(await c.unlockConnector("CP1", 1)).toBe("Unlocked");

    const limit = (id: number, purpose: string, amps: number) => ({
      chargingProfileId: id,
      stackLevel: 0,
      chargingProfilePurpose: purpose,
      chargingProfileKind: "Relative",
      chargingSchedule: { chargingRateUnit: "A", chargingSchedulePeriod: [{ startPeriod: 0, limit: amps }] },
    });
    expect(received).toEqual([
      {
        action: "RemoteStartTransaction",
        params: { idTag: "TAG-OK", connectorId: 1, chargingProfile: limit(2, "TxProfile", 16) },
      },
      { action: "RemoteStartTransaction", params: { idTag: "TAG-OK" } },
      { action: "RemoteStopTransaction", params: { transactionId: 7 } },
      {
        action: "SetChargingProfile",
        params: { connectorId: 0, csChargingProfiles: limit(1, "TxDefaultProfile", 10) },
      },
      {
        action: "SetChargingProfile",
        params: { connectorId: 1, csChargingProfiles: { ...limit(2, "TxProfile", 6), transactionId: 7 } },
      },
      { action: "ClearChargingProfile", params: {} },
      { action: "ClearChargingProfile", params: { id: 2, chargingProfilePurpose: "TxProfile", connectorId: 1 } },
      { action: "ChangeAvailability", params: { connectorId: 0, type: "Inoperative" } },
      { action: "Reset", params: { type: "Soft" } },
      { action: "TriggerMessage", params: { requestedMessage: "MeterValues", connectorId: 1 } },
      { action: "UnlockConnector", params: { connectorId: 1 } },
    ]);
  });

  it("rejects a command to a charge point that is not connected, refused, unanswered or malformed", async () => {
    harness = await startHarness({ commandTimeoutMs: 300 });
    const h = harness;
    const failure = async (command: Promise<unknown>) => {
      try {
        await command;
      } catch (error) {
        if (error instanceof OcppCommandError) return { kind: error.kind, code: error.code };
        throw error;
      }
      throw new Error("expected an OcppCommandError");
    };
    expect(await failure(h.central.reset("CP2"))).toEqual({ kind: "not-connected", code: undefined });

    const cp = await connect(h);
    cp.handle("Reset", async () => {
      throw createRPCError("NotSupported", "no resets here");
    });
    cp.handle("UnlockConnector", () => new Promise<Record<string, unknown>>(() => {}));
    expect(await failure(h.central.reset("CP1"))).toEqual({ kind: "call-error", code: "NotSupported" });
    expect(await failure(h.central.unlockConnector("CP1", 1))).toEqual({ kind: "timeout", code: undefined });
    // An idTag longer than OCPP's 20 characters is never sent.
    expect(await failure(h.central.remoteStart("CP1", { idTag: "X".repeat(21) }))).toEqual({
      kind: "invalid-request",
      code: undefined,
    });
    expect(await failure(h.central.setCurrentLimit("CP1", { limitA: -1, purpose: "TxProfile" }))).toEqual({
      kind: "invalid-request",
      code: undefined,
    });
  });

  it("refuses an unknown charge point and a wrong password with 401, logging the identity but no password", async () => {
    harness = await startHarness();
    const h = harness;
    const refusal = async (id: string, password: string) => {
      const client = chargePoint(h.central.port, id, password);
      try {
        await client.connect();
      } catch (error) {
        return (error as { code?: unknown }).code;
      } finally {
        await client.close({ force: true });
      }
      return "connected";
    };
    expect(await refusal("CP9", "cp9-password")).toBe(401);
    expect(await refusal("CP1", "not-the-password")).toBe(401);
    expect(h.central.connected("CP1")).toBe(false);
    const warnings = h.log().filter((line) => line.level === 40);
    expect(warnings.map((line) => line.msg)).toEqual([
      'OCPP connection from "CP9" refused: unknown charge point',
      'OCPP connection from "CP1" refused: wrong password',
    ]);
    expect(h.logText()).not.toContain("not-the-password");
    expect(h.logText()).not.toContain("cp9-password");
    expect(h.events).toEqual([]);
  });

  it("replaces an older connection of the same charge point, and reports connections as events", async () => {
    harness = await startHarness();
    const h = harness;
    const first = await connect(h);
    const second = chargePoint(h.central.port, CP1.id, CP1.password);
    clients.push(second);
    await second.connect();
    await until(() => first.state === 3);
    expect(h.central.connected("CP1")).toBe(true);
    await second.close();
    await until(() => !h.central.connected("CP1"));
    expect(h.events.map((event) => event.kind)).toEqual(["connected", "connected", "disconnected"]);
    let completed = false;
    h.central.events$.subscribe({ complete: () => (completed = true) });
    await h.central.close();
    expect(completed).toBe(true);
  });
});
