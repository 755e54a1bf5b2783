import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { HistorySink } from "../../src/history/index.js";
import { createLogger } from "../../src/log/log.js";
import { openStore, type Store } from "../../src/store/index.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";
import { capture } from "../helpers/capture.js";
import { points, SERIAL, T0 } from "../store/helpers/history-records.js";

describe("the daemon's history sink", () => {
  let store: Store | undefined;
  let blocker: Database.Database | undefined;
  afterEach(() => {
    blocker?.close();
    store?.close();
    store = undefined;
    blocker = undefined;
  });

  it("drops writes while another process holds the database, says so once, and writes again after", () => {
    const path = join(mkdtempSync(join(tmpdir(), "e2m-sink-")), "e2m.db");
    store = openStore(path, { busyTimeoutMs: 10 });
    const output = capture();
    const lines = () =>
      output
        .text()
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { level: number; msg: string; err?: string });
    const clock = new VirtualClock(T0);
    const sink = new HistorySink(store.history, createLogger("info", { destination: output.stream }), clock);

    blocker = new Database(path);
    blocker.exec("BEGIN EXCLUSIVE");
    sink.write(points(3, T0));
    clock.advance(60_000);
    sink.write(points(3, T0 + 900_000));
    expect(sink.failing).toBe(true);
    const errors = lines().filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(String(errors[0]?.msg)).toContain("live data still goes to MQTT");
    expect(String(errors[0]?.err)).toMatch(/another energy2mqtt|using/);

    blocker.exec("COMMIT");
    sink.write(points(3, T0 + 1_800_000));
    expect(sink.failing).toBe(false);
    expect(lines().some((line) => String(line.msg).includes("writing again"))).toBe(true);
    const stored = [...store.history.query({ kind: "inverter.point", device: SERIAL })];
    // The dropped batches are gone (the backfill refetches them); the one after the lock is there.
    expect(stored).toHaveLength(3);
  });
});
