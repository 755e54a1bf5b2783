import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { type BacktestResult, backtestResultSchema } from "../backtest/result.js";
import type { Logger } from "../log/log.js";
import type { SpawnCli } from "./backtest-child.js";
import type { BacktestJobView } from "./backtest-view.js";

/** Finished runs kept for their pages to read. */
const KEPT = 4;
/** The CLI's progress line: `backtest: <tariff> <policy> <n>%`. */
const PROGRESS = /^backtest: (\S+) (\S+) (\d+)%$/;

interface Job {
  id: string;
  state: BacktestJobView["state"];
  /** Replays expected: tariffs × policies (the configured tariff counted when it may be there). */
  replays: number;
  done: Map<string, number>;
  phase: string;
  started: number;
  ended: number | undefined;
  result: BacktestResult | null;
  error: string | null;
  child: ChildProcess | undefined;
}

/**
 * The page's backtests, one at a time, each `energy2mqtt backtest --json` as a child process: a
 * year's replay takes minutes of CPU, which would stall the daemon's event loop and its polls.
 */
export class BacktestJobs {
  private readonly jobs = new Map<string, Job>();
  private running: Job | undefined;

  constructor(
    private readonly spawnCli: SpawnCli,
    private readonly logger: Logger,
  ) {}

  /** Starts a run of the CLI with `args` (its options, --json added), or names the one running. */
  start(args: readonly string[], replays: number): { readonly id: string } | { readonly running: string } {
    if (this.running) return { running: this.running.id };
    const job: Job = {
      id: randomUUID(),
      state: "running",
      replays: Math.max(1, replays),
      done: new Map(),
      phase: "reading the store",
      started: performance.now(),
      ended: undefined,
      result: null,
      error: null,
      child: undefined,
    };
    const child = this.spawnCli(["backtest", ...args, "--json"]);
    job.child = child;
    this.running = job;
    this.jobs.set(job.id, job);
    for (const old of [...this.jobs.values()].filter((one) => one.state !== "running").slice(0, -KEPT))
      this.jobs.delete(old.id);
    let out = "";
    const errors: string[] = [];
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    if (child.stderr)
      createInterface({ input: child.stderr }).on("line", (line) => {
        const progress = PROGRESS.exec(line);
        if (progress) {
          const [, tariff, policy, percent] = progress;
          job.done.set(`${tariff} ${policy}`, Number(percent) / 100);
          job.phase = `replaying ${policy} on the ${tariff} tariff`;
        } else if (line.startsWith("backtest: the demo house's year")) job.phase = "wrote the demo house's year";
        else if (line.trim() !== "") errors.push(line);
      });
    child.on("error", (error) => this.finish(job, undefined, error.message));
    child.on("close", (code) => {
      if (code !== 0) return this.finish(job, undefined, errors.join("\n") || `the backtest ended with code ${code}`);
      try {
        this.finish(job, backtestResultSchema.parse(JSON.parse(out)), null);
      } catch (error) {
        this.finish(job, undefined, `the backtest's result could not be read: ${(error as Error).message}`);
      }
    });
    return { id: job.id };
  }

  view(id: string): BacktestJobView | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    const done = [...job.done.values()].reduce((sum, share) => sum + share, 0);
    return {
      id: job.id,
      state: job.state,
      fraction: job.state === "done" ? 1 : Math.min(0.99, done / job.replays),
      phase: job.phase,
      seconds: ((job.ended ?? performance.now()) - job.started) / 1000,
      result: job.result,
      error: job.error,
    };
  }

  /** The run going now, else the last one started: what the page shows when it is opened again. */
  latest(): BacktestJobView | undefined {
    const job = this.running ?? [...this.jobs.values()].at(-1);
    return job ? this.view(job.id) : undefined;
  }

  /** Ends a run still going (the daemon stops). */
  stop(): void {
    this.running?.child?.kill();
  }

  private finish(job: Job, result: BacktestResult | undefined, error: string | null): void {
    if (job.state !== "running") return;
    job.state = result ? "done" : "failed";
    job.result = result ?? null;
    job.error = result ? null : error;
    job.phase = result ? "done" : "failed";
    job.ended = performance.now();
    job.child = undefined;
    if (this.running === job) this.running = undefined;
    const seconds = Number(((job.ended - job.started) / 1000).toFixed(1));
    if (result) this.logger.info({ id: job.id, seconds }, "backtest from the web page done");
    else this.logger.warn({ id: job.id, seconds, error }, "backtest from the web page failed");
  }
}
