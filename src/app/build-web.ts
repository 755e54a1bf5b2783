import type { EventBus } from "../bus/event-bus.js";
import type { Config } from "../config/index.js";
import type { ControlGate } from "../control/index.js";
import type { Logger } from "../log/log.js";
import type { LoadedRules } from "../rules/index.js";
import type { RulesRuntime } from "../rules-runtime/index.js";
import type { CloudAccess, CloudTarget } from "../sources/cloud/index.js";
import type { Store } from "../store/index.js";
import type { Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import type { RequestBudgetReader } from "../vocabulary/request-budget.js";
import { webFeature } from "../web/index.js";
import type { RulesStart } from "./build-rules.js";
import type { Sources } from "./build-sources.js";
import { backtestArgs } from "./web-backtest.js";
import { carTargets } from "./web-cars.js";
import { rulesHelp, rulesPlan } from "./web-plan.js";

/** The web page: live values, history, the rules' plan and the controls. */
export function buildWeb(options: {
  readonly config: Config;
  readonly configFile: string | undefined;
  readonly version: string;
  readonly cloud: CloudTarget | undefined;
  readonly access: CloudAccess | undefined;
  readonly budget: RequestBudgetReader;
  readonly store: Store | undefined;
  readonly inventory: () => Inventory;
  readonly rulesFile: LoadedRules | undefined;
  readonly rules: { readonly runtime: RulesRuntime | undefined };
  readonly rulesStart: RulesStart;
  readonly gate: ControlGate;
  readonly sources: Sources;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly clock: Clock;
}): ReturnType<typeof webFeature> {
  const { config, store, inventory, rules, rulesStart, budget, gate, access, clock } = options;
  const { paths } = options.sources;
  return webFeature({
    config: config.web,
    bus: options.bus,
    store,
    storePath: config.store.path,
    inventory,
    rules: () => rules.runtime,
    rulesStarting: () => rulesStart.pending,
    plan: rulesPlan(options.rulesFile, inventory, store?.history, clock, store?.publishedPrices),
    planHelp: rulesHelp(options.configFile),
    budget: () => budget.state(),
    prices: (at) => rules.runtime?.prices(at) ?? { currency: "" },
    timeZone: () => inventory().timezone || config.timezone,
    clock,
    version: options.version,
    simulated: options.cloud?.simulated ?? false,
    logger: options.logger,
    ...(paths ? { paths } : {}),
    ...(access ? { refusal: () => access.refusal() } : {}),
    source: config.source,
    controls: (serial) => gate.controlValues(serial),
    writesToday: () => gate.writesToday(),
    carTargets: carTargets(options.rulesFile, () => rules.runtime?.carState?.()),
    chargerPath: options.sources.chargerPath,
    backtest: { args: backtestArgs(config, options.configFile, options.rulesFile?.file) },
  });
}
