import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CloudClient, RateBudget } from "../src/cloud/index.js";
import { startSimulator } from "../src/simulator/index.js";
import { archiveAccount } from "../src/sources/cloud/index.js";
import { cloudHistory } from "../src/sources/index.js";
import { openStore } from "../src/store/index.js";

/**
 * One inverter-year from the simulator into a fresh store, at a rate limit that makes the run
 * rate-bound. The service counts requests in fixed one-minute windows, so n requests need
 * ceil(n / limit) windows and cannot finish before (windows - 1) minutes have passed: any
 * rate-bound run lasts at least a minute, and a run that fits in one window has no floor to
 * compare with. 300 a minute (the real service's limit) puts one year in two windows.
 */
const REQUESTS_PER_MINUTE = 300;
const WINDOW_MS = 60_000;
// fleet:1 has one inverter commissioned 2025-01-01: a full year of history at this start.
const START = Date.UTC(2026, 0, 1, 12, 0, 0);

export async function archiveBenchmark(): Promise<void> {
  const simulator = await startSimulator({
    port: 0,
    speed: 0,
    seed: 7,
    start: START,
    scenario: "fleet:1",
    requestsPerMinute: REQUESTS_PER_MINUTE,
    admin: false,
  });
  const dir = mkdtempSync(join(tmpdir(), "e2m-archive-bench-"));
  const path = join(dir, "history.db");
  const store = openStore(path);
  let requests = 0;
  let limited = 0;
  try {
    const token = simulator.tokens.owner ?? "";
    const client = new CloudClient({
      baseUrl: simulator.url,
      token,
      budget: new RateBudget({ limit: REQUESTS_PER_MINUTE, windowMs: WINDOW_MS }),
      onRequest: (event) => {
        requests++;
        if (event.status === 429) limited++;
      },
    });
    const started = performance.now();
    const report = await archiveAccount({
      source: cloudHistory(client),
      history: store.history,
      clock: simulator.clock,
      concurrency: 8,
    });
    const seconds = (performance.now() - started) / 1000;
    const windows = Math.ceil(requests / REQUESTS_PER_MINUTE);
    const least = ((windows - 1) * WINDOW_MS) / 1000;
    const rows = [...report.kinds.values()].reduce((sum, kind) => sum + kind.rows, 0);
    const ratio = least > 0 ? seconds / least : Number.NaN;
    console.log(`archive: one inverter-year from the simulator at ${REQUESTS_PER_MINUTE} requests/minute`);
    console.log(`  requests: ${requests} (${limited} answered 429), ${report.failures.length} failed; ${rows} rows`);
    for (const [kind, totals] of report.kinds) console.log(`    ${kind}: ${totals.rows} rows over ${totals.days} days`);
    console.log(`  time: ${seconds.toFixed(1)} s; least the limit allows: ${least.toFixed(1)} s (${windows} windows)`);
    console.log(
      `  ratio: ${ratio.toFixed(3)}; target within 10%: ${ratio <= 1.1 ? "met" : "MISSED"}; database ${(statSync(path).size / 1e6).toFixed(1)} MB`,
    );
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
    await simulator.stop();
  }
}
