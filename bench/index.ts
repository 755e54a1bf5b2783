import { clientBenchmark } from "./client.bench.js";
import { daemonBenchmark } from "./daemon.bench.js";
import { simulatorBenchmark } from "./simulator.bench.js";

const benches: Record<string, () => Promise<void>> = {
  client: clientBenchmark,
  simulator: simulatorBenchmark,
  daemon: daemonBenchmark,
};
const only = process.argv.slice(2);

for (const [name, run] of Object.entries(benches)) {
  if (only.length > 0 && !only.includes(name)) continue;
  await run();
}
