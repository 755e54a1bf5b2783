import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryLocalSnapshots, MemoryWriteCounts, openStore, StoreError } from "../../src/store/index.js";
import { tempDir } from "./helpers/temp-dir.js";

describe("the store's write counts and local snapshots", () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it("counts per device and local day, gives the warning once, and keeps both across a reopen", () => {
    const path = dir.path("counts.db");
    const store = openStore(path);
    expect(store.writeCounts.add("SA1", "2026-11-16", 1)).toBe(1);
    expect(store.writeCounts.add("SA1", "2026-11-16", 4)).toBe(5);
    expect(store.writeCounts.add("SB2", "2026-11-16", 2)).toBe(2);
    expect(store.writeCounts.add("SA1", "2026-11-17", 3)).toBe(3);
    expect(store.writeCounts.markWarned("SA1", "2026-11-16")).toBe(true);
    expect(store.writeCounts.markWarned("SA1", "2026-11-16")).toBe(false);
    store.close();
    const again = openStore(path);
    expect(again.writeCounts.get("SA1", "2026-11-16")).toEqual({ serial: "SA1", writes: 5, warned: true });
    expect(again.writeCounts.get("SC3", "2026-11-16")).toEqual({ serial: "SC3", writes: 0, warned: false });
    expect(again.writeCounts.day("2026-11-16")).toEqual([
      { serial: "SA1", writes: 5, warned: true },
      { serial: "SB2", writes: 2, warned: false },
    ]);
    again.close();
  });

  it("keeps a snapshot once per device and name, and says what to do with a damaged one", () => {
    const path = dir.path("snapshots.db");
    const store = openStore(path);
    const snapshot = {
      serial: "SA1",
      name: "evening",
      takenAt: 1_800_000_000_000,
      settings: [{ settingId: 71, name: "Battery Reserve % Limit", value: 20 }],
    };
    expect(store.localSnapshots.add(snapshot)).toBe(true);
    expect(store.localSnapshots.add({ ...snapshot, settings: [] })).toBe(false);
    expect(store.localSnapshots.get("SA1", "evening")).toEqual(snapshot);
    expect(store.localSnapshots.get("SB2", "evening")).toBeUndefined();
    store.close();
    const db = new Database(path);
    db.prepare("UPDATE local_snapshot SET settings = ?").run(JSON.stringify([{ settingId: "x" }]));
    db.close();
    const again = openStore(path);
    expect(() => again.localSnapshots.get("SA1", "evening")).toThrow(StoreError);
    expect(again.localSnapshots.delete("SA1", "evening")).toBe(true);
    expect(again.localSnapshots.delete("SA1", "evening")).toBe(false);
    again.close();
  });
});

describe("the in-memory write counts and snapshots, for a daemon whose store could not be opened", () => {
  it("answer as the store's do", () => {
    const counts = new MemoryWriteCounts();
    expect(counts.add("SB2", "2026-11-16", 2)).toBe(2);
    expect(counts.add("SA1", "2026-11-16", 3)).toBe(3);
    expect(counts.add("SA1", "2026-11-17", 1)).toBe(1);
    expect(counts.markWarned("SA1", "2026-11-16")).toBe(true);
    expect(counts.markWarned("SA1", "2026-11-16")).toBe(false);
    expect(counts.day("2026-11-16")).toEqual([
      { serial: "SA1", writes: 3, warned: true },
      { serial: "SB2", writes: 2, warned: false },
    ]);
    const snapshots = new MemoryLocalSnapshots();
    const snapshot = {
      serial: "SA1",
      name: "evening",
      takenAt: 1,
      settings: [{ settingId: 71, name: "r", value: 20 }],
    };
    expect(snapshots.add(snapshot)).toBe(true);
    expect(snapshots.add(snapshot)).toBe(false);
    expect(snapshots.get("SA1", "evening")).toEqual(snapshot);
    expect(snapshots.delete("SA1", "evening")).toBe(true);
    expect(snapshots.get("SA1", "evening")).toBeUndefined();
  });
});
