import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { checkBacktestOptions } from "../backtest/options.js";
import type { Logger } from "../log/log.js";
import type { BacktestJobs } from "./backtest-jobs.js";
import { json, readJson } from "./respond.js";
import { checkSameOrigin, type Guard } from "./security.js";

/** The page's form: the CLI's options by their names on the page; the CLI's own checks decide the rest. */
const bodySchema = z.strictObject({
  from: z.string().max(10).optional(),
  to: z.string().max(10).optional(),
  /** `--tariff` specs, NAME:PRODUCT[+EXPORT_PRODUCT]. */
  tariffs: z.array(z.string().max(200)).max(8).default([]),
  region: z.string().max(2).optional(),
  batteryKwh: z.union([z.number(), z.string().max(20)]).optional(),
  by: z.string().max(10).optional(),
  policies: z.array(z.string().max(20)).min(1).max(6).optional(),
});
export type BacktestBody = z.input<typeof bodySchema>;

const jobPath = /^\/api\/backtest\/([0-9a-f-]{36})$/;

/**
 * POST /api/backtest starts `energy2mqtt backtest` on the daemon's store (one at a time: 409 names
 * the one running); GET /api/backtest/<id> says how far it is and, when done, its result; GET
 * /api/backtest, the one running or else the last (for a page opened again).
 */
export async function backtestRoute(
  http: { readonly request: IncomingMessage; readonly response: ServerResponse; readonly path: string },
  context: {
    readonly guard: Guard;
    readonly logger: Logger;
    readonly jobs: BacktestJobs | undefined;
    readonly baseArgs: readonly string[];
  },
): Promise<boolean> {
  const { request, response, path } = http;
  const { jobs } = context;
  const job = jobPath.exec(path);
  if (path !== "/api/backtest" && !job) return false;
  const send = (status: number, body: unknown): true => {
    json(response, status, body);
    return true;
  };
  if (!jobs) return send(503, { error: "backtests are not available on this daemon" });
  if (job) {
    if (request.method !== "GET") return send(405, { error: "use GET" });
    const view = jobs.view(job[1] ?? "");
    return send(view ? 200 : 404, view ?? { error: `no backtest ${job[1]}` });
  }
  if (request.method === "GET") return send(200, { job: jobs.latest() ?? null });
  const verdict = checkSameOrigin(context.guard, request);
  if (!verdict.ok) return send(verdict.status, { error: verdict.message });
  let raw: unknown;
  try {
    raw = await readJson(request);
  } catch (error) {
    return send(400, { error: (error as Error).message });
  }
  const body = bodySchema.safeParse(raw);
  if (!body.success) return send(400, { error: z.prettifyError(body.error) });
  const { tariffs, policies, ...rest } = body.data;
  const checked = checkBacktestOptions({
    ...rest,
    tariff: tariffs,
    ...(policies ? { policies: policies.join(",") } : {}),
  });
  if ("problem" in checked) return send(400, { error: checked.problem });
  const { options: cli, specs } = checked;
  const args = [
    ...context.baseArgs,
    ...(cli.from ? ["--from", cli.from] : []),
    ...(cli.to ? ["--to", cli.to] : []),
    ...cli.tariff.flatMap((spec) => ["--tariff", spec]),
    ...(cli.region ? ["--region", cli.region] : []),
    ...(cli.batteryKwh === undefined ? [] : ["--battery-kwh", String(cli.batteryKwh)]),
    "--by",
    cli.by,
    ...(cli.policies ? ["--policies", cli.policies.join(",")] : []),
  ];
  const started = jobs.start(args, (cli.policies?.length ?? 6) * (specs.length + 1));
  if ("running" in started)
    return send(409, { error: "a backtest is already running: wait for it", id: started.running });
  context.logger.info({ id: started.id, args }, "backtest started from the web page");
  return send(202, started);
}
