import { Observable } from "rxjs";
import { StartupError } from "./app-errors.js";
import type { EventBus } from "./bus.js";
import type { CloudClient } from "./cloud/index.js";
import type { Config } from "./config/index.js";
import type { ControlGate } from "./control/index.js";
import type { Feature } from "./feature.js";
import type { Logger } from "./log.js";
import type { RulesRuntime } from "./ports/rules.js";
// Only types at the top: the rules are loaded when a configuration names them.
import type { LoadedRules, RulesEngine, Tariff } from "./rules/index.js";
import type { Store } from "./store/index.js";
import { type Availability, type DeviceState, type Inventory, StateChanges } from "./telemetry/index.js";
import type { Clock } from "./time/clock.js";

/**
 * The rules file the configuration names, read and checked before anything starts: a bad one
 * stops start-up (exit 2) with its problems by line.
 */
export async function loadDaemonRules(
  config: Config,
  configFile: string | undefined,
): Promise<LoadedRules | undefined> {
  if (!config.rules) return undefined;
  const { loadRules, RulesError, rulesPath } = await import("./rules/index.js");
  try {
    return loadRules(rulesPath(config.rules, configFile));
  } catch (error) {
    if (error instanceof RulesError) throw new StartupError(error.message, 2);
    throw error;
  }
}

/**
 * The rules against the devices just discovered, as `check` makes it: a value a device refuses
 * stops start-up (exit 2) with `check`'s own message, not at the hour the rule first runs.
 */
export async function checkDaemonRulesOnDevices(loaded: LoadedRules | undefined, inventory: Inventory): Promise<void> {
  if (!loaded) return;
  const { refuseRulesNotFitting, RulesError } = await import("./rules/index.js");
  try {
    refuseRulesNotFitting(loaded, inventory);
  } catch (error) {
    if (error instanceof RulesError) throw new StartupError(error.message, 2);
    throw error;
  }
}

export interface DaemonRulesOptions {
  readonly config: Config;
  readonly loaded: LoadedRules | undefined;
  readonly client: CloudClient;
  readonly gate: ControlGate;
  readonly store: Store | undefined;
  readonly inventory: Inventory;
  readonly readings$: Observable<DeviceState | Availability>;
  readonly logger: Logger;
  /** The daemon's one clock: the rules' timers and now. */
  readonly clock?: Clock;
}

/**
 * Starts the tariff rules, or nothing when the configuration names none. Without the store the
 * rules do not run, since the promise to put things back must outlive the process.
 */
export async function startDaemonRules(options: DaemonRulesOptions): Promise<RulesEngine | undefined> {
  const { config, loaded, logger } = options;
  if (!loaded) return undefined;
  if (!options.store) {
    logger.error(
      { rules: loaded.file },
      "the tariff rules are not running: they need the store to keep their promise to restore; fix store.path",
    );
    return undefined;
  }
  const store = options.store;
  const { startRules, createTariff, rulesTimeZone, houseForecast } = await import("./rules/index.js");
  const timeZone = rulesTimeZone(loaded.rules, options.inventory.timezone);
  const tariffs: { import?: Tariff; export?: Tariff } = {};
  if (loaded.rules.tariffs.import) tariffs.import = createTariff(loaded.rules.tariffs.import, timeZone);
  if (loaded.rules.tariffs.export) tariffs.export = createTariff(loaded.rules.tariffs.export, timeZone);
  const engine = await startRules({
    rules: loaded.rules,
    tariffs,
    gate: options.gate,
    client: options.client,
    store,
    inventory: options.inventory,
    readings$: options.readings$,
    house: (now) => houseForecast(store.history, { now, timeZone }),
    ...(options.clock ? { scheduler: options.clock } : {}),
    logger,
    dryRun: config.dry_run,
  });
  const names = engine.list().map((rule) => rule.name);
  logger.info({ rules: loaded.file, names, dryRun: config.dry_run || loaded.rules.dry_run }, "tariff rules running");
  return engine;
}

export interface RulesFeatureOptions extends Omit<DaemonRulesOptions, "readings$" | "inventory"> {
  readonly bus: EventBus;
  readonly inventory: () => Inventory;
  /** The rules start once the devices are announced, and are shown to Home Assistant after them. */
  readonly after: () => Promise<void>;
  readonly attach: (engine: RulesEngine) => Promise<void>;
}

export interface RulesFeature extends Feature {
  /** The running rules, once started (undefined without a rules file or a store). */
  readonly runtime: RulesRuntime | undefined;
}

/**
 * The tariff rules as a feature: they read readings from the bus and change devices through the
 * gate; what they do goes on the bus as ruleEvent.
 */
export function rulesFeature(options: RulesFeatureOptions): RulesFeature {
  const { bus } = options;
  const name = "rules";
  const readings$ = new Observable<DeviceState | Availability>((subscriber) => {
    const changes = new StateChanges();
    const off = [
      bus.on("fetched", name, (fetched) => {
        const state = changes.of(fetched);
        if (state) subscriber.next(state);
      }),
      bus.on("availability", name, (reading) => subscriber.next(reading)),
    ];
    return () => {
      for (const unsubscribe of off) unsubscribe();
    };
  });
  let engine: RulesEngine | undefined;
  let events: { unsubscribe(): void } | undefined;
  return {
    name,
    get runtime() {
      return engine;
    },
    async start() {
      if (!options.loaded) return;
      await options.after();
      engine = await startDaemonRules({ ...options, inventory: options.inventory(), readings$ });
      if (!engine) return;
      events = engine.events$.subscribe((event) => bus.emit("ruleEvent", event));
      await options.attach(engine);
    },
    async stop() {
      bus.removeAll(name);
      events?.unsubscribe();
      await engine?.stop();
    },
  };
}
