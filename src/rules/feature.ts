import { Observable, Subject, type Subscription } from "rxjs";
import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { DeviceReads } from "../control/index.js";
import type { Logger } from "../log/log.js";
import type { Mqtt } from "../mqtt/index.js";
import type { RulesRuntime } from "../rules-runtime/index.js";
import type { Store } from "../store/index.js";
import type { Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import type { LiveObservation } from "./engine/live-state.js";
import { CarTopics, carTopicsOf } from "./house/car-topics.js";
import { countersIn, LatestObserved, observedIn } from "./house/live-input.js";
// Only types from the rest of rules/: the engine, tariffs and planners load when rules run.
import type { LoadedRules, RulesEngine, RulesGate, Tariff } from "./index.js";

export interface RulesFeatureOptions {
  readonly bus: EventBus;
  /** The rules file the configuration names, read and checked; undefined: no rules run. */
  readonly loaded: LoadedRules | undefined;
  readonly gate: RulesGate;
  /** What a device holds now, read only, for the promise to restore. */
  readonly reads: DeviceReads;
  /** Without it the rules do not run: the promise to put things back must outlive the process. */
  readonly store: Store | undefined;
  /** The device lists read at start-up; the ones read later come on the bus. */
  readonly inventory: Inventory;
  readonly logger: Logger;
  /** The daemon's one clock: the rules' timers and now. */
  readonly clock: Clock;
  /** The configuration's dry_run: every rule dry-runs. */
  readonly dryRun: boolean;
  /**
   * The daemon's MQTT connection (messages come as mqttMessage on the bus): a solar forecast and
   * the cars' targets that Home Assistant publishes are read from it.
   */
  readonly mqtt?: Pick<Mqtt, "subscribe">;
}

export interface RulesFeature extends Feature {
  /** The running rules, once started (undefined without a rules file or a store). */
  readonly runtime: RulesRuntime | undefined;
  /**
   * Settles once the rules run, or once it is clear they will not (no rules file, no store, the
   * feature stopped first); rejects when they failed to start.
   */
  readonly started: Promise<RulesRuntime | undefined>;
}

/**
 * The tariff rules as a feature: they follow the devices' values and lists on the bus and change
 * devices through the gate; what they do goes on the bus as ruleEvent, and `rulesStarted` says
 * they run. Started before telemetry like every consumer, they plan once telemetry's first round
 * is in, so that the first plan knows the battery's charge.
 */
export function rulesFeature(options: RulesFeatureOptions): RulesFeature {
  const { bus, loaded, logger } = options;
  const name = "rules";
  let inventory = options.inventory;
  const latest = new LatestObserved();
  const observed = new Subject<LiveObservation>();
  // What is known already first, then what comes.
  const live$ = new Observable<LiveObservation>((subscriber) => {
    for (const seen of latest.all()) subscriber.next(seen);
    return observed.subscribe(subscriber);
  });
  const see = (seen: LiveObservation | undefined): void => {
    if (!seen) return;
    latest.add(seen);
    observed.next(seen);
  };

  const carTopics = new CarTopics(carTopicsOf(loaded?.rules.rules ?? []), logger);
  // A forecast Home Assistant publishes: what came before the rules ran, then the listener.
  const solarConfig = loaded?.rules.solar_forecast;
  const forecastTopics = solarConfig?.provider === "home-assistant-mqtt" ? solarConfig.topics : [];
  const early = new Map<string, { payload: string; at: number }>();
  let heard: { receive(topic: string, payload: string, at: number): void } | undefined;

  let engine: RulesEngine | undefined;
  let events: Subscription | undefined;
  let starting: Promise<RulesEngine | undefined> | undefined;
  let stopped = false;
  let settle: (runtime: RulesRuntime | undefined) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const started = new Promise<RulesRuntime | undefined>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // Whoever awaits it hears of a failure; until then it is not an unhandled rejection.
  started.catch(() => undefined);

  const run = async (rules: LoadedRules, store: Store): Promise<RulesEngine | undefined> => {
    const {
      startRules,
      createTariff,
      rulesTimeZone,
      houseForecaster,
      savingsBattery,
      savingsSummary,
      savingsOverMonths,
      HomeAssistantForecastListener,
      withStoredPrices,
    } = await import("./index.js");
    const timeZone = rulesTimeZone(rules.rules, inventory.timezone);
    const tariffs: { import?: Tariff; export?: Tariff } = {};
    if (rules.rules.tariffs.import) tariffs.import = createTariff(rules.rules.tariffs.import, timeZone);
    if (rules.rules.tariffs.export) tariffs.export = createTariff(rules.rules.tariffs.export, timeZone);
    // Past days' prices the tariffs no longer hold (after a restart) come from the store.
    const pricing = withStoredPrices(tariffs, store.publishedPrices);
    const battery = savingsBattery(rules.rules.battery, capacityOf(rules.rules.battery.capacity_kwh, inventory));
    const overMonths = savingsOverMonths(store.history, { tariffs: pricing, timeZone, battery });
    const listener =
      forecastTopics.length > 0
        ? new HomeAssistantForecastListener(forecastTopics, (topic, message) =>
            logger.warn(
              { provider: "home-assistant-mqtt", topic },
              `solar forecast payload not used (the last good forecast is kept): ${message}`,
            ),
          )
        : undefined;
    if (listener) {
      for (const [topic, { payload, at }] of early) listener.receive(topic, payload, at);
      early.clear();
      heard = listener;
    }
    const house = houseForecaster(store, {
      timeZone,
      config: rules.rules.solar_forecast,
      logger,
      ...(listener ? { heard: listener } : {}),
    });
    if (rules.rules.solar_forecast) {
      // The first plan waits a little for the solar provider's answer; a slow one serves the next plan.
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([
        house.refresh(options.clock.now()),
        new Promise((resolve) => {
          wait = setTimeout(resolve, 10_000);
          wait.unref();
        }),
      ]);
      clearTimeout(wait);
    }
    const next = await startRules({
      rules: rules.rules,
      tariffs,
      gate: options.gate,
      reads: options.reads,
      store,
      inventory: () => inventory,
      live$,
      house: house.forecast,
      carTopic: (topic) => carTopics.value(topic),
      savings: savingsSummary(store.history, { tariffs: pricing, timeZone, battery }),
      savingsRange: (from, to) => {
        const { house, group } = overMonths(from, to, options.clock.now());
        return { ...house, group };
      },
      clock: options.clock,
      logger,
      dryRun: options.dryRun,
    });
    if (stopped) {
      await next.stop();
      return undefined;
    }
    engine = next;
    events = next.events$.subscribe((event) => bus.emit("ruleEvent", event));
    const names = next.list().map((rule) => rule.name);
    logger.info({ rules: rules.file, names, dryRun: options.dryRun || rules.rules.dry_run }, "tariff rules running");
    bus.emit("rulesStarted", { runtime: next, timeZone: next.timeZone });
    return next;
  };

  return {
    name,
    get runtime() {
      return engine;
    },
    started,
    start() {
      if (!loaded) {
        settle(undefined);
        return;
      }
      const store = options.store;
      if (!store) {
        logger.error(
          { rules: loaded.file },
          "the tariff rules are not running: they need the store to keep their promise to restore; fix store.path",
        );
        settle(undefined);
        return;
      }
      bus.on("fetched", name, (fetched) => {
        see(observedIn(fetched));
        // The grid counters feed today's cost; Home Assistant shows it again when it changed.
        const counters = countersIn(fetched);
        if (engine && counters && engine.addCounters(counters.serial, counters.at, counters.grid))
          bus.emit("rulesChanged", { rules: engine.list() });
      });
      bus.on("mqttMessage", name, ({ topic, payload }) => {
        if (carTopics.accept(topic, payload)) logger.info({ topic, value: carTopics.value(topic) }, "car target taken");
        if (!forecastTopics.includes(topic)) return;
        const at = options.clock.now();
        if (heard) heard.receive(topic, payload, at);
        else early.set(topic, { payload, at });
      });
      const mqtt = options.mqtt;
      if (!mqtt && forecastTopics.length > 0)
        logger.error(
          { provider: "home-assistant-mqtt" },
          "solar_forecast: home-assistant-mqtt needs the daemon's MQTT connection; the plan runs on the learned profile",
        );
      for (const topic of forecastTopics)
        mqtt
          ?.subscribe(topic)
          .catch((error: unknown) =>
            logger.warn({ topic, err: error }, "solar forecast: could not subscribe; retried on reconnection"),
          );
      for (const topic of carTopicsOf(loaded.rules.rules)) {
        if (!mqtt) {
          logger.warn({ topic }, "the car's target topic is not read: no MQTT connection");
          continue;
        }
        mqtt
          .subscribe(topic)
          .catch((error: unknown) =>
            logger.warn({ topic, err: (error as Error).message }, "the car's target topic could not be subscribed"),
          );
      }
      bus.on("inventoryChanged", name, (changed) => {
        inventory = changed.inventory;
      });
      bus.on("firstRound", name, () => {
        if (starting || stopped) return;
        starting = run(loaded, store);
        starting.then(settle, fail);
      });
    },
    async stop() {
      stopped = true;
      bus.removeAll(name);
      observed.complete();
      if (!starting) settle(undefined);
      await starting?.catch(() => undefined);
      events?.unsubscribe();
      await engine?.stop();
    },
  };
}

/** The battery the savings' eco-only house runs: rules.yaml's, else the inverters' together, else 9.5 kWh. */
function capacityOf(configured: number | undefined, inventory: Inventory): number {
  if (configured !== undefined) return configured;
  const listed = inventory.inverters.reduce((sum, inverter) => sum + (inverter.batteryCapacityKwh ?? 0), 0);
  return listed > 0 ? listed : 9.5;
}
