import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { backtestResultSchema } from "../src/backtest/result.js";
import { runBacktestCommand } from "../src/commands/backtest.js";
import { loadYear } from "../src/demo/planner-year.js";
import { VirtualClock } from "../src/time/index.js";
import { BENCH_RULES, backtestHouse, writeYearToStore } from "../test/helpers/planner-year-store.js";

/**
 * `energy2mqtt backtest` on a whole year: the planner-year fixture imported into a store (as the
 * backtest test does for two weeks) and every policy replayed through the command, as a user runs
 * it. Prints the wall time, the process's CPU time (all threads: the workers' too), the load
 * average before (other work on the machine slows the wall time) and each policy's seconds.
 * `npm run bench -- backtest-year` (`backtest-year:json=FILE` also writes the JSON output, to
 * compare two versions' figures to the penny; `backtest-year:days=N` replays the first N days;
 * `backtest-year:policies=rules,optimiser` only those, as the command's --policies).
 */

const ROOT = join(import.meta.dirname, "..");

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

export async function backtestYearBenchmark(options: readonly string[] = []): Promise<void> {
  const jsonFile = options.find((option) => option.startsWith("json="))?.slice(5);
  const days = Number(options.find((option) => option.startsWith("days="))?.slice(5) ?? 365);
  const policies = options.find((option) => option.startsWith("policies="))?.slice(9);
  const year = loadYear(ROOT);
  const dir = mkdtempSync(join(tmpdir(), "e2m-backtest-bench-"));
  try {
    const house = backtestHouse(join(dir, "house"), BENCH_RULES);
    writeYearToStore(year, 0, days * 48, house.store);
    process.env.ENERGY2MQTT_CONFIG = "";
    const to = new Date(Date.UTC(2023, 0, days)).toISOString().slice(0, 10);
    const load = loadavg()[0] ?? 0;
    const out = sink();
    const err = sink();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const code = await runBacktestCommand(
      { config: house.config, from: "2023-01-01", to, by: "month", json: true, ...(policies ? { policies } : {}) },
      out.stream,
      err.stream,
      new VirtualClock(Date.UTC(2026, 0, 20, 12)),
    );
    const wall = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    if (code !== 0) throw new Error(`backtest-year: the command ended with ${code}: ${err.text()}`);
    const result = backtestResultSchema.parse(JSON.parse(out.text()));
    if (jsonFile) writeFileSync(jsonFile, out.text());
    const seconds = Object.entries(result.seconds)
      .map(([policy, value]) => `${policy} ${value.toFixed(1)} s`)
      .join(", ");
    console.log(
      `backtest-year: ${result.halfHours} half-hours, ${policies ?? "every policy"}: ${wall.toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU (user+sys, all threads) on ${availableParallelism()} cores, 1-min load ${load.toFixed(2)} before`,
    );
    console.log(`backtest-year: each policy (its own thread or the main one): ${seconds}`);
    const totals = new Map<string, number>();
    for (const row of result.rows) totals.set(row.policy, (totals.get(row.policy) ?? 0) + row.costGbp);
    console.log(
      `backtest-year: cost over the range: ${[...totals].map(([policy, cost]) => `${policy} £${cost.toFixed(2)}`).join(", ")}`,
    );
    for (const note of result.assumptions.filter((line) => line.includes("left out"))) console.log(`  ${note}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
