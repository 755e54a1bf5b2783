import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { RuleEvent, RulesRuntime } from "../ports/index.js";
import type { WebHealth } from "./api-types.js";
import { dailyEnergy, historyDevices, powerColumns } from "./history-api.js";
import type { LiveState } from "./live.js";
import type { WebOptions } from "./options.js";
import { overlaps, type PlanHelp, type PlanView } from "./plan-view.js";
import { json, readJson } from "./respond.js";
import { checkSameOrigin } from "./security.js";
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
}

const DAY_MS = 86_400_000;

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

const ruleAction = /^\/api\/rules\/([^/]+)\/(enable|run|dry-run)$/;

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
  if (method !== "GET") return json(response, 405, { error: "use GET" });
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
      const plan = await options.plan({ socPercent: live.soc() });
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
      return json(response, 200, { rules: options.rules()?.list() ?? [], loaded: options.rules() !== undefined });
    case "/api/audit": {
      const parsed = auditQuery.safeParse(params);
      if (!parsed.success) return json(response, 400, { error: z.prettifyError(parsed.error) });
      return json(response, 200, { entries: options.store?.audit.recent({ limit: parsed.data.limit }) ?? [] });
    }
    case "/api/health":
      return json(response, 200, context.health());
    case "/api/history/devices":
      return json(response, 200, { devices: options.store ? historyDevices(options.store.history) : [] });
    case "/api/history":
    case "/api/history/days": {
      const parsed = rangeQuery.safeParse(params);
      if (!parsed.success) return json(response, 400, { error: z.prettifyError(parsed.error) });
      if (!options.store) return json(response, 503, { error: "the store is not open" });
      const { device, from, to, width } = parsed.data;
      if (to <= from) return json(response, 400, { error: "to must be after from" });
      return json(
        response,
        200,
        path === "/api/history"
          ? powerColumns(options.store.history, { device, from, to, width })
          : dailyEnergy(options.store.history, { device, from: from - DAY_MS, to }, options.prices),
      );
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
  if (action === "run") {
    const result = await runtime.runNow(name);
    changed();
    return json(response, 200, result);
  }
  // Dry run: what the rule would send over the planned hours; nothing is sent.
  const plan = await options.plan({ socPercent: live.soc() });
  const rule = plan?.rules.find((one) => one.name === name);
  return json(response, 200, {
    ok: rule !== undefined,
    dryRun: true,
    message: rule ? `${rule.windows.length} planned window(s); nothing was sent` : "the plan does not know this rule",
    windows: rule?.windows ?? [],
  });
}
