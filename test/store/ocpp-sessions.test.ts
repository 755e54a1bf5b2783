import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryOcppSessions, type OcppSessionStore, openStore } from "../../src/store/index.js";
import { tempDir } from "./helpers/temp-dir.js";

const START = 1_800_000_000_000;

function exercise(sessions: OcppSessionStore): void {
  const first = sessions.open({
    chargePoint: "CP1",
    connectorId: 1,
    idTag: "TAG1",
    startedAt: START,
    meterStartWh: 1000,
  });
  expect(first).toEqual({
    id: 1,
    chargePoint: "CP1",
    connectorId: 1,
    idTag: "TAG1",
    startedAt: START,
    meterStartWh: 1000,
  });
  const other = sessions.open({
    chargePoint: "CP2",
    connectorId: 2,
    idTag: "TAG2",
    startedAt: START + 1,
    meterStartWh: 0,
  });
  expect(other.id).toBe(2);
  expect(sessions.openOf("CP1")).toEqual(first);
  expect(sessions.openOf("CP1", 2)).toBeUndefined();
  expect(sessions.openOf("CP2", 2)?.id).toBe(2);
  const closed = sessions.close(first.id, { stoppedAt: START + 3_600_000, meterStopWh: 8_400, stopReason: "Local" });
  expect(closed).toEqual({
    ...first,
    stoppedAt: START + 3_600_000,
    meterStopWh: 8_400,
    energyKwh: 7.4,
    stopReason: "Local",
  });
  // A second stop changes nothing.
  expect(sessions.close(first.id, { stoppedAt: START + 7_200_000, meterStopWh: 9_000 })).toEqual(closed);
  expect(sessions.close(99, { stoppedAt: START })).toBeUndefined();
  expect(sessions.openOf("CP1")).toBeUndefined();
  expect(sessions.recent(10).map((s) => s.id)).toEqual([2, 1]);
  expect(sessions.recent(1)).toHaveLength(1);
  expect(sessions.recent(10, "CP1")).toEqual([closed]);
}

describe("the store's OCPP sessions", () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it("opens and closes sessions, with their energy, in SQLite and in memory", () => {
    const store = openStore(dir.path("sessions.db"));
    exercise(store.ocppSessions);
    store.close();
    exercise(new MemoryOcppSessions());
  });

  it("never gives a transaction id twice, not after a restart nor after rows are deleted", () => {
    const path = dir.path("ids.db");
    const store = openStore(path);
    const a = store.ocppSessions.open({
      chargePoint: "CP1",
      connectorId: 1,
      idTag: "T",
      startedAt: START,
      meterStartWh: 0,
    });
    const b = store.ocppSessions.open({
      chargePoint: "CP1",
      connectorId: 1,
      idTag: "T",
      startedAt: START,
      meterStartWh: 0,
    });
    store.close();
    const raw = new Database(path);
    raw.prepare("DELETE FROM ocpp_sessions").run();
    raw.close();
    const again = openStore(path);
    const c = again.ocppSessions.open({
      chargePoint: "CP1",
      connectorId: 1,
      idTag: "T",
      startedAt: START,
      meterStartWh: 0,
    });
    expect([a.id, b.id, c.id]).toEqual([1, 2, 3]);
    again.close();
  });
});
