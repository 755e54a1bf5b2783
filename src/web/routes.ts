import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { RuleEvent, RulesRuntime } from "../rules-runtime/index.js";
import type { WebHealth } from "./api-types.js";
import { backtestRoute } from "./backtest-api.js";
import type { BacktestJobs } from "./backtest-jobs.js";
import { historyDevices, powerColumns } from "./history-api.js";
import { scopeSavings } from "./history-savings.js";
import { scopeDailyEnergy } from "./history-scope-days.js";
import { historyScopes, scopeOf } from "./history-scopes.js";
import type { LiveState } from "./live.js";
import type { WebOptions } from "./options.js";
import { overlaps, type PlanHelp, type PlanView } from "./plan-view.js";
import { json, readJson } from "./respond.js";
import { checkSameOrigin } from "./security.js";
import { settingsBackupsRoute } from "./settings-backups-api.js";
import type { EventStream } from "./sse.js";

export interface ApiContext {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly options: WebOptions;
  readonly live: LiveState;
  readonly stream: EventStream;
  readonly health: () => WebHealth;
  readonly ruleEvents: () => readonly RuleEvent[];
  readonly backtests: BacktestJobs | undefined;
}

const DAY_MS = 86_400_000;
/** Savings are metered from every 5-minute point (about a second a year): the months of the range's last 62 days at most. */
const SAVINGS_DAYS = 62;

/** Where rules start, when the daemon was given no configuration file to say where they go. */
export const RULES_HELP: PlanHelp = {
  rulesFile: null,
  configFile: null,
  example: "config/rules.example.yaml",
  docs: "https://github.com/energy2mqtt/energy2mqtt/blob/main/docs/rules.md",
};

const rangeQuery = z.object({
  device: z.string().min(1),
  from: z.coerce.number().int().nonnegative(),
  to: z.coerce.number().int().positive(),
  width: z.coerce.number().int().min(50).max(10_000).default(1200),
});
const auditQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) });
const enableBody = z.strictObject({ enabled: z.boolean() });
/** Run now sends only when the page says its user confirmed, after the preview; override runs despite the rule's if:. */
const runBody = z.strictObject({ confirm: z.literal(true), override: z.boolean().default(false) });

const ruleAction = /^\/api\/rules\/([^/]+)\/(enable|preview|run|dry-run)$/;

/** The JSON API: reads by GET, commands by POST behind the same-origin check. */
export async function handleApi(context: ApiContext): Promise<void> {
  const { request, response, path, query, options, live, stream } = context;
  const method = request.method ?? "GET";
  const action = ruleAction.exec(path);
  if (action) {
    const verdict = checkSameOrigin(options.config, request);
    if (!verdict.ok) return json(response, verdict.status, { error: verdict.message });
    return ruleCommand(context, decodeURIComponent(action[1] ?? ""), action[2] ?? "");
  }
  const backtest = { guard: options.config, logger: options.logger, baseArgs: options.backtest?.args ?? [] };
  if (await backtestRoute(context, { ...backtest, jobs: context.backtests })) return;
  if (method !== "GET") return json(response, 405, { error: "use GET" });
  const backups = settingsBackupsRoute(path, response, options.store);
  if (backups) return backups;
  const params = Object.fromEntries(query);
  switch (path) {
    case "/api/now":
      return json(response, 200, live.snapshot());
    case "/api/events":
      return stream.add(response, [
        { event: "live", data: live.snapshot() },
        { event: "rules", data: options.rules()?.list() ?? [] },
      ]);
    case "/api/plan": {
      const plan = await options.plan({
        socPercent: live.soc(),
        car: options.rules()?.carState?.(),
        calibrating: options.rules()?.calibrating?.() === true,
      });
      return json(
        response,
        200,
        plan
          ? { plan: asSwitched(plan, options.rules()) }
          : { plan: null, reason: "no rules are loaded", help: options.planHelp ?? RULES_HELP },
      );
    }
    case "/api/rule-events":
      return json(response, 200, { events: context.ruleEvents() });
    case "/api/rules":
      return json(response, 200, {
        rules: options.rules()?.list() ?? [],
        loaded: options.rules() !== undefined,
        timeZone: options.timeZone?.() ?? null,
      });
    case "/api/audit": {
      const parsed = auditQuery.safeParse(params);
      if (!parsed.success) return json(response, 400, { error: z.prettifyError(parsed.error) });
      return json(response, 200, { entries: options.store?.audit.recent({ limit: parsed.data.limit }) ?? [] });
    }
    case "/api/health":
      return json(response, 200, context.health());
    case "/api/history/devices": {
      const devices = options.store ? historyDevices(options.store.history) : [];
      return json(response, 200, { devices, scopes: historyScopes(devices, options.inventory()) });
    }
    case "/api/history":
    case "/api/history/days": {
      const parsed = rangeQuery.safeParse(params);
      if (!parsed.success) return json(response, 400, { error: z.prettifyError(parsed.error) });
      if (!options.store) return json(response, 503, { error: "the store is not open" });
      const { device, from, to, width } = parsed.data;
      if (to <= from) return json(response, 400, { error: "to must be after from" });
      const scope = scopeOf(historyScopes(historyDevices(options.store.history), options.inventory()), device);
      if (!scope) return json(response, 404, { error: `no History scope ${device}` });
      if (path === "/api/history")
        return json(
          response,
          200,
          powerColumns(options.store.history, { device, members: scope.members, from, to, width }),
        );
      const days = scopeDailyEnergy(options.store.history, scope, { from: from - DAY_MS, to }, options.prices);
      const savings = options.rules()?.savingsBetween?.(Math.max(from - DAY_MS, to - SAVINGS_DAYS * DAY_MS), to);
      return json(response, 200, {
        ...days,
        timeZone: options.timeZone?.() ?? null,
        savings: savings ? scopeSavings(savings, scope) : null,
      });
    }
    default:
      return json(response, 404, { error: `no API ${path}` });
  }
}

/**
 * The plan with each rule on or off as it is now (switched from Home Assistant or the page), not as
 * the file says; the conflicts and who wins them among the rules that are on.
 */
function asSwitched(plan: PlanView, runtime: RulesRuntime | undefined): PlanView {
  const enabled = new Map(runtime?.list().map((rule) => [rule.name, rule.enabled]));
  const rules = plan.rules.map((rule) => ({ ...rule, enabled: enabled.get(rule.name) ?? rule.enabled }));
  const on = (name: string) => rules.some((rule) => rule.name === name && rule.enabled);
  const contests = plan.contests.filter((contest) => on(contest.winner) && on(contest.loser));
  return { ...plan, rules, conflicts: overlaps(rules), contests };
}

/** Enable, disable, run now and dry run: through the running rules, so through the control gate and its audit. */
async function ruleCommand(context: ApiContext, name: string, action: string): Promise<void> {
  const { request, response, options, live } = context;
  const runtime: RulesRuntime | undefined = options.rules();
  if (!runtime) {
    const starting = options.rulesStarting?.() === true;
    return json(response, 409, {
      error: starting ? "starting, try again in a few seconds: the rules are not loaded yet" : "no rules are running",
    });
  }
  if (!runtime.list().some((rule) => rule.name === name)) return json(response, 404, { error: `no rule ${name}` });
  let body: unknown;
  try {
    body = await readJson(request);
  } catch (error) {
    return json(response, 400, { error: (error as Error).message });
  }
  const changed = () => options.bus.emit("rulesChanged", { rules: runtime.list() });
  if (action === "enable") {
    const parsed = enableBody.safeParse(body);
    if (!parsed.success) return json(response, 400, { error: z.prettifyError(parsed.error) });
    runtime.setEnabled(name, parsed.data.enabled);
    options.logger.info({ rule: name, enabled: parsed.data.enabled, source: "web" }, "rule switched from the web page");
    // What the house does changed: the audit log says who switched which rule, beside the devices' changes.
    const switched = parsed.data.enabled ? "on" : "off";
    options.store?.audit.record({
      at: options.clock.now(),
      source: "web",
      requesterName: "web page",
      targetKind: "rule",
      target: name,
      action: `rule:${parsed.data.enabled ? "enable" : "disable"}`,
      request: { enabled: parsed.data.enabled },
      ok: true,
      verified: true,
      skipped: false,
      message: `rule ${name} switched ${switched}`,
    });
    changed();
    return json(response, 200, { ok: true, rules: runtime.list() });
  }
  if (action === "preview") {
    if (!runtime.previewRun) return json(response, 501, { error: "these rules cannot say what a run would do" });
    return json(response, 200, await runtime.previewRun(name));
  }
  if (action === "run") {
    const parsed = runBody.safeParse(body);
    if (!parsed.success)
      return json(response, 400, {
        error: `nothing was sent: a run needs {"confirm": true} after its preview (${z.prettifyError(parsed.error)})`,
      });
    const { override } = parsed.data;
    const result = await runtime.runNow(name, { respectConditions: !override });
    record(context, name, override ? "rule:run-override" : "rule:run", { confirm: true, override }, result.ok, {
      skipped: result.actions.every((one) => one.skipped),
      message: `run now from the web page${override ? ", its condition overridden" : ""}: ${result.message}`,
    });
    changed();
    return json(response, 200, result);
  }
  // Dry run: what a run now would send, recorded (rule events and the audit log); nothing is sent.
  if (!runtime.dryRunNow) return json(response, 501, { error: "these rules cannot dry-run" });
  const preview = await runtime.dryRunNow(name);
  record(context, name, "rule:dry-run", {}, preview.ok, {
    skipped: true,
    message: `dry run from the web page: ${preview.message}`,
  });
  const plan = await options.plan({
    socPercent: live.soc(),
    car: options.rules()?.carState?.(),
    calibrating: options.rules()?.calibrating?.() === true,
  });
  const rule = plan?.rules.find((one) => one.name === name);
  return json(response, 200, {
    ok: preview.ok,
    dryRun: true,
    message: `dry run: ${preview.message}; nothing was sent`,
    preview,
    windows: rule?.windows ?? [],
  });
}

/** An audit row for what the page asked of a rule: who (the web page), what, and what came of it. */
function record(
  context: ApiContext,
  rule: string,
  action: string,
  request: { readonly [key: string]: boolean },
  ok: boolean,
  outcome: { readonly skipped: boolean; readonly message: string },
): void {
  const { options } = context;
  options.store?.audit.record({
    at: options.clock.now(),
    source: "web",
    requesterName: "web page",
    targetKind: "rule",
    target: rule,
    action,
    request,
    ok,
    verified: false,
    skipped: outcome.skipped,
    message: outcome.message,
  });
}
