import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { World } from "../src/simulator/index.js";
import { loadScenario } from "../src/simulator/scenario/load.js";
import { type HistoryRecord, type JsonObject, openStore } from "../src/store/index.js";
import { localDateTimeToMs } from "../src/time/local-instant.js";

const YEAR = 2025;
const DAY_MS = 86_400_000;

/**
 * One simulated year of the demo house's first inverter, as the archive stores it: every
 * 5-minute data point (one day per batch, as the archive writes them), the half-hourly and daily
 * energy flows, and its fault events.
 */
function simulatedYear(): { points: HistoryRecord[][]; flows: HistoryRecord[]; events: HistoryRecord[] } {
  const world = new World(loadScenario("demo"), 1, Date.UTC(YEAR + 1, 0, 1, 12));
  const inverter = [...world.inverters.values()][0];
  if (!inverter) throw new Error("the demo scenario has no inverter");
  const device = inverter.serial;
  const timezone = inverter.model.spec.timezone;
  const points: HistoryRecord[][] = [];
  for (let ms = Date.UTC(YEAR, 0, 1); ms < Date.UTC(YEAR + 1, 0, 1); ms += DAY_MS) {
    const day = new Date(ms).toISOString().slice(0, 10);
    points.push(
      inverter.model.dataPoints(day).map(({ time, ...data }) => ({
        kind: "inverter.point",
        device,
        at: Date.parse(time),
        key: "",
        data: data as JsonObject,
      })),
    );
  }
  const flows = ([0, 1] as const).flatMap((grouping) =>
    inverter.model.energyFlows({ start: `${YEAR}-01-01`, end: `${YEAR + 1}-01-01`, grouping }).map(
      (flow): HistoryRecord => ({
        kind: grouping === 0 ? "flow.half_hour" : "flow.day",
        device,
        at: localDateTimeToMs(flow.start_time, timezone),
        key: "",
        data: flow.data as JsonObject,
      }),
    ),
  );
  const events = inverter.model
    .events({ cleared: true, startMs: Date.UTC(YEAR, 0, 1), endMs: Date.UTC(YEAR + 1, 0, 1) })
    .map(
      (event): HistoryRecord => ({
        kind: "inverter.event",
        device,
        at: Date.parse(event.start_time),
        key: event.event,
        data: { end_time: event.end_time ?? null },
      }),
    );
  return { points, flows, events };
}

function megabytes(bytes: number): string {
  return (bytes / 1_048_576).toFixed(1);
}

export async function storeBenchmark(): Promise<void> {
  const year = simulatedYear();
  const pointCount = year.points.reduce((total, day) => total + day.length, 0);
  const dir = mkdtempSync(join(tmpdir(), "e2m-store-bench-"));
  try {
    const path = join(dir, "history.db");
    const store = openStore(path);
    let started = performance.now();
    for (const day of year.points) store.history.write(day);
    const ingestMs = performance.now() - started;
    const perSecond = pointCount / (ingestMs / 1000);

    started = performance.now();
    let unchanged = 0;
    for (const day of year.points) unchanged += store.history.write(day).unchanged;
    const againPerSecond = pointCount / ((performance.now() - started) / 1000);

    store.history.write(year.flows);
    store.history.write(year.events);
    started = performance.now();
    let read = 0;
    for (const _ of store.history.query({ kind: "inverter.point" })) read++;
    const readPerSecond = read / ((performance.now() - started) / 1000);
    store.close();

    const db = new Database(path);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.exec("VACUUM");
    db.close();
    const size = statSync(path).size;

    console.log(
      `store: one simulated year of one inverter (${pointCount} points in ${year.points.length} daily batches, ` +
        `${year.flows.length} flows, ${year.events.length} events)`,
    );
    console.log(
      `  ingest ${perSecond.toFixed(0)} points/s (target >= 100000: ${perSecond >= 100_000 ? "met" : "MISSED"}); ` +
        `the same year again ${againPerSecond.toFixed(0)} points/s (${unchanged} unchanged); read back ${readPerSecond.toFixed(0)} points/s`,
    );
    console.log(`  database after VACUUM: ${megabytes(size)} MB per inverter-year`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
