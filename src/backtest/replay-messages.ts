import { z } from "zod";
import { batterySchema } from "../optimiser/index.js";
import { backtestPolicySchema } from "./result.js";
import { rulesReplayReportSchema } from "./rules-replay/report.js";

/* What the backtest's worker threads are given and answer (replay-pool.ts, replay-worker.ts). */

const numbers = z.array(z.number());

export const replayJobSchema = z.object({
  policy: backtestPolicySchema,
  input: z.object({
    series: z.object({
      starts: numbers,
      load: numbers,
      solar: numbers,
      importPrice: numbers,
      exportPrice: numbers,
      timeZone: z.string(),
    }),
    battery: batterySchema,
    initialSocKwh: z.number(),
    metered: z.object({ importKwh: numbers, exportKwh: numbers }).optional(),
    rules: z.object({ file: z.string().min(1) }).optional(),
  }),
});
export type ReplayJob = z.infer<typeof replayJobSchema>;

const flows = z.custom<Float64Array>((value) => value instanceof Float64Array, "a Float64Array");
export const workerMessageSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("progress"), done: z.number() }),
  z.object({ kind: z.literal("none") }),
  z.object({ kind: z.literal("skipped"), reason: z.string() }),
  z.object({
    kind: z.literal("done"),
    importKwh: flows,
    exportKwh: flows,
    cost: flows,
    seconds: z.number(),
    rules: rulesReplayReportSchema.optional(),
  }),
  z.object({ kind: z.literal("error"), message: z.string(), missingSolver: z.boolean() }),
]);
export type WorkerMessage = z.infer<typeof workerMessageSchema>;
