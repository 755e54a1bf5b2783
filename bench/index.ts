import { archiveBenchmark } from "./archive.bench.js";
import { backtestYearBenchmark } from "./backtest-year.bench.js";
import { carBenchmark } from "./car.bench.js";
import { clientBenchmark } from "./client.bench.js";
import { daemonBenchmark } from "./daemon.bench.js";
import { fleetBenchmark } from "./fleet.bench.js";
import { givtcpDayBenchmark } from "./givtcp-day.bench.js";
import { localBenchmark } from "./local.bench.js";
import { plannerBenchmark } from "./planner.bench.js";
import { plannerYearBenchmark } from "./planner-year.bench.js";
import { rulesBenchmark } from "./rules.bench.js";
import { simulatorBenchmark } from "./simulator.bench.js";
import { startBenchmark } from "./start.bench.js";
import { storeBenchmark } from "./store.bench.js";
import { webBenchmark } from "./web.bench.js";

/** Each bench, given the options asked for it (`name:option`). */
const benches: Record<string, (options: string[]) => Promise<void>> = {
  client: clientBenchmark,
  simulator: simulatorBenchmark,
  daemon: daemonBenchmark,
  fleet: fleetBenchmark,
  planner: plannerBenchmark,
  "planner-year": plannerYearBenchmark,
  "backtest-year": backtestYearBenchmark,
  car: carBenchmark,
  rules: rulesBenchmark,
  archive: archiveBenchmark,
  store: storeBenchmark,
  web: webBenchmark,
  local: localBenchmark,
  start: startBenchmark,
  "givtcp-day": givtcpDayBenchmark,
};
const only = process.argv.slice(2);

for (const [name, run] of Object.entries(benches)) {
  const asked = only.filter((arg) => arg === name || arg.startsWith(`${name}:`));
  if (only.length > 0 && asked.length === 0) continue;
  await run(asked.filter((arg) => arg !== name).map((arg) => arg.slice(name.length + 1)));
}
