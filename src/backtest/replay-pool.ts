import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { SolverMissingError } from "./exact.js";
import { type PolicyReplay, type PolicySkipped, replayPolicy } from "./replay.js";
import { type ReplayJob, workerMessageSchema } from "./replay-messages.js";

/*
 * The backtest's policies (and tariffs) side by side: each replay is independent of the others,
 * so the slow ones (the rules, the optimiser, the exact optimum) run on worker threads, as many at
 * once as the machine has cores; the rest run here. Where no worker can be started (from the
 * TypeScript source without tsx to load it), everything runs here, one after another.
 */

export type ReplayOutcome = PolicyReplay | PolicySkipped | undefined;

/** Policies slow enough to be worth a thread (they re-plan every half-hour or solve programs), the longest first. */
const LONGEST_FIRST: readonly string[] = ["rules", "optimiser", "exact-optimum"];
const SLOW = new Set(LONGEST_FIRST);

/** Runs every job and answers their outcomes in the jobs' order. */
export async function replayAll(
  jobs: readonly ReplayJob[],
  onProgress: (index: number, done: number) => void,
): Promise<ReplayOutcome[]> {
  const start = workerStarter();
  const outcomes: ReplayOutcome[] = new Array(jobs.length);
  const slow = jobs.map((job, index) => ({ job, index })).filter(({ job }) => start && SLOW.has(job.policy));
  // The longest first, so that the shorter ones fill the other threads meanwhile: on the
  // planner-year's year the rules take about 32 s of a core, the optimiser 27 s, the exact optimum 14 s.
  slow.sort((a, b) => LONGEST_FIRST.indexOf(a.job.policy) - LONGEST_FIRST.indexOf(b.job.policy));
  const queue = [...slow];
  const threads = Math.max(1, Math.min(availableParallelism(), queue.length));
  const runners = Array.from({ length: start ? threads : 0 }, async () => {
    for (let next = queue.shift(); next && start; next = queue.shift()) {
      const { job, index } = next;
      outcomes[index] = await inWorker(start, job, (done) => onProgress(index, done));
    }
  });
  const threaded = new Set(slow.map(({ index }) => index));
  for (const [index, job] of jobs.entries())
    if (!threaded.has(index))
      outcomes[index] = await replayPolicy(job.policy, job.input, (done) => onProgress(index, done));
  await Promise.all(runners);
  return outcomes;
}

type StartWorker = (job: ReplayJob) => Worker;

/**
 * A replay makes short-lived objects every half-hour (rates, forecasts, plans): with a young
 * generation of 64 MB they are collected less often (a year's rules replay spent 8% of its time
 * collecting, 6% with it).
 */
const YOUNG = { maxYoungGenerationSizeMb: 64 };

/**
 * How a worker is started: the built replay-worker.js as it is; from the TypeScript source,
 * through tsx registered in the worker first (undefined when tsx cannot be found).
 */
function workerStarter(): StartWorker | undefined {
  const entry = new URL(import.meta.url.endsWith(".ts") ? "./replay-worker.ts" : "./replay-worker.js", import.meta.url);
  if (!import.meta.url.endsWith(".ts")) return (job) => new Worker(entry, { workerData: job, resourceLimits: YOUNG });
  let tsx: string;
  try {
    tsx = import.meta.resolve("tsx/esm/api");
  } catch {
    return undefined;
  }
  const code = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); });`;
  return (job) => new Worker(code, { eval: true, workerData: job, resourceLimits: YOUNG });
}

function inWorker(start: StartWorker, job: ReplayJob, onProgress: (done: number) => void): Promise<ReplayOutcome> {
  return new Promise((resolve, reject) => {
    const worker = start(job);
    let settled = false;
    const settle = (action: () => void) => {
      if (settled) return;
      settled = true;
      action();
      void worker.terminate();
    };
    worker.on("message", (raw: unknown) => {
      const message = workerMessageSchema.parse(raw);
      switch (message.kind) {
        case "progress":
          onProgress(message.done);
          break;
        case "none":
          settle(() => resolve(undefined));
          break;
        case "skipped":
          settle(() => resolve({ policy: job.policy, skipped: message.reason }));
          break;
        case "done": {
          const { importKwh, exportKwh, cost, seconds, rules } = message;
          const flows = { importKwh, exportKwh, cost };
          settle(() => resolve({ policy: job.policy, flows, seconds, ...(rules ? { rules } : {}) }));
          break;
        }
        case "error":
          settle(() =>
            reject(message.missingSolver ? new SolverMissingError(message.message) : new Error(message.message)),
          );
          break;
      }
    });
    worker.on("error", (error) => settle(() => reject(error)));
    worker.on("exit", (code) =>
      settle(() => reject(new Error(`backtest: the ${job.policy} worker stopped (${code})`))),
    );
  });
}
