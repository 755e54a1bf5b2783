// Runs the simulator in its own process for the benchmarks, reporting start-up time and memory.
// Arguments: scenario (demo), clock speed (1), requests a minute per token (no limit to speak of),
// and "recent" to commission a fleet's inverters a few days before the simulated start (see
// recentFleetScenario: the simulator would otherwise integrate a year of history per inverter),
// and "local" to open a dongle per inverter, EMS and gateway on free ports (their ports are sent).

import { startSimulator } from "../src/simulator/index.js";
import { recentFleetScenario } from "../test/helpers/simulator.js";

/** The daemon's backfill reaches 3 days back: that much history, and no more, for it to find. */
const RECENT_DAYS = 3;

const name = process.argv[2] ?? "demo";
const speed = Number(process.argv[3] ?? 1);
const requestsPerMinute = Number(process.argv[4] ?? 100_000_000);
const fleet = /^fleet:(\d+)$/.exec(name);
const start = Date.now();
const scenario =
  fleet?.[1] && process.argv[5] === "recent" ? recentFleetScenario(Number(fleet[1]), start, RECENT_DAYS) : name;
const started = performance.now();
const local = process.argv.slice(5).includes("local");
const simulator = await startSimulator({
  port: 0,
  scenario,
  speed,
  requestsPerMinute,
  seed: 1,
  start,
  ...(local ? { localPort: 0 } : {}),
});
const startupMs = performance.now() - started;
globalThis.gc?.();
process.send?.({
  url: simulator.url,
  token: simulator.tokens.owner,
  dongles: simulator.dongles,
  startupMs,
  rssBytes: process.memoryUsage().rss,
  heapBytes: process.memoryUsage().heapUsed,
});
process.on("disconnect", () => {
  void simulator.stop().then(() => process.exit(0));
});
