// Runs the simulator in its own process for the benchmarks, reporting start-up time and memory.
// Arguments: scenario (demo), clock speed (1), requests a minute per token (no limit to speak of),
// and "recent" to commission a fleet's inverters a few days before the simulated start.

import { startSimulator } from "../src/simulator/index.js";
import { fleetScenario } from "../src/simulator/scenario/builtin.js";
import { scenarioSchema } from "../src/simulator/scenario/schema.js";

const DAY_MS = 86_400_000;
/** The daemon's backfill reaches 3 days back: that much history, and no more, for it to find. */
const RECENT_DAYS = 3;

/**
 * fleet:N with every inverter commissioned RECENT_DAYS before `start`. The simulator integrates
 * an inverter's history from its commissioning the first time it is asked about it; for the
 * built-in fleet (commissioned through 2025) that is a year or more per inverter, minutes of
 * work for the first device listing of a large fleet, which the daemon would see as a cloud
 * that does not answer.
 */
function recentFleet(size: number, start: number) {
  const input = fleetScenario(size);
  const commission_date = new Date(start - RECENT_DAYS * DAY_MS).toISOString().slice(0, 10);
  return scenarioSchema.parse({
    ...input,
    accounts: input.accounts.map((account) => ({
      ...account,
      devices: account.devices?.map((device) => ({
        ...device,
        ...(device.inverter ? { inverter: { ...device.inverter, commission_date } } : {}),
      })),
    })),
  });
}

const name = process.argv[2] ?? "demo";
const speed = Number(process.argv[3] ?? 1);
const requestsPerMinute = Number(process.argv[4] ?? 100_000_000);
const fleet = /^fleet:(\d+)$/.exec(name);
const start = Date.now();
const scenario = fleet?.[1] && process.argv[5] === "recent" ? recentFleet(Number(fleet[1]), start) : name;
const started = performance.now();
const simulator = await startSimulator({ port: 0, scenario, speed, requestsPerMinute, seed: 1, start });
const startupMs = performance.now() - started;
globalThis.gc?.();
process.send?.({
  url: simulator.url,
  token: simulator.tokens.owner,
  startupMs,
  rssBytes: process.memoryUsage().rss,
  heapBytes: process.memoryUsage().heapUsed,
});
process.on("disconnect", () => {
  void simulator.stop().then(() => process.exit(0));
});
