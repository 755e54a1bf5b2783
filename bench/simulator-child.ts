// Runs the simulator in its own process for the benchmarks, reporting start-up time and memory.
import { startSimulator } from "../src/simulator/index.js";

const scenario = process.argv[2] ?? "demo";
const started = performance.now();
const simulator = await startSimulator({ port: 0, scenario, requestsPerMinute: 100_000_000, seed: 1 });
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
