import { parentPort, workerData } from "node:worker_threads";
import { SolverMissingError } from "./exact.js";
import { replayPolicy } from "./replay.js";
import { replayJobSchema, type WorkerMessage } from "./replay-messages.js";

/* A worker thread's replay of one policy (replay-pool.ts): progress as it goes, then the outcome. */

const port = parentPort;
if (port) {
  const job = replayJobSchema.parse(workerData);
  const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  replayPolicy(job.policy, job.input, (done) => post({ kind: "progress", done })).then(
    (outcome) => {
      if (!outcome) post({ kind: "none" });
      else if ("skipped" in outcome) post({ kind: "skipped", reason: outcome.skipped });
      else {
        const { importKwh, exportKwh, cost } = outcome.flows;
        const rules = outcome.rules ? { rules: outcome.rules } : {};
        post({ kind: "done", importKwh, exportKwh, cost, seconds: outcome.seconds, ...rules }, [
          importKwh.buffer as ArrayBuffer,
          exportKwh.buffer as ArrayBuffer,
          cost.buffer as ArrayBuffer,
        ]);
      }
    },
    (error: Error) =>
      post({ kind: "error", message: error.message, missingSolver: error instanceof SolverMissingError }),
  );
}
