import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { ControlGate, ControlReadBack } from "../control/index.js";
import type { Logger } from "../log/log.js";
import type { Mqtt } from "../mqtt/index.js";
import type { RulesRuntime } from "../rules-runtime/index.js";
import type { AccountReads } from "../sources/index.js";
import type { Inventory } from "../telemetry/index.js";
import { type Clock, later } from "../time/index.js";
import type { ClockSyncNow } from "./bridge-actions.js";
import { bridgeRequestsFeature } from "./bridge-requests.js";
import { commandsFeature } from "./commands.js";
import { controlsFeature } from "./controls-feature.js";
import { DeviceStates } from "./device-states.js";
import type { Origin } from "./discovery.js";
import { DiscoveryPublisher } from "./discovery-publisher.js";
import { sender } from "./publisher.js";
import { rulesClockOn } from "./rules-clock.js";
import { type AttachRulesOptions, RulesEntities } from "./rules-entities.js";
import { rulesEntitiesFeature } from "./rules-feature.js";
import { stateFeature } from "./state-feature.js";
import type { Topics } from "./topics.js";
import { WorkInFlight } from "./work.js";

export interface HomeAssistantOptions {
  readonly bus: EventBus;
  readonly mqtt: Mqtt;
  readonly topics: Topics;
  /** Home Assistant's birth topic: "online" there means discovery must be sent again. */
  readonly statusTopic: string;
  readonly discovery: boolean;
  readonly origin: Origin;
  /** homeassistant.naming: `givtcp` adds GivTCP's entity names beside the own ones; `own` by default. */
  readonly naming?: "own" | "givtcp";
  /** Bridge requests' snapshots and profiles (they are no entity's). */
  readonly client: AccountReads;
  readonly gate: ControlGate;
  /** `bridge/request/clock/sync`: a device's clock set now (the clock watch), when the daemon sets clocks. */
  readonly syncClock?: ClockSyncNow | undefined;
  readonly readBack: ControlReadBack;
  readonly inventory: () => Inventory;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Discovery nodes other features publish under (the bridge's own device): never removed as stale. */
  readonly keepNodes?: readonly string[];
  /** Longest wait for the first round of reads before announcing the devices anyway; 30 s by default. */
  readonly announceWithinMs?: number;
  /** How long a stop lets commands under way finish. */
  readonly stopMs: number;
}

export interface HomeAssistant {
  /** Started in this order after the MQTT connection, stopped in reverse. */
  readonly features: readonly Feature[];
  /** Settles once the devices are announced (the first round of polls is in, or its time ran out). */
  readonly announced: Promise<void>;
  /** Publishes the tariff rules (again, after a reload); the time zone defaults to the account's. */
  attachRules(runtime: RulesRuntime, options?: Partial<AttachRulesOptions>): Promise<void>;
  /** Rules are on their way (true) or will not come (false): until attached, their commands are told to wait. */
  rulesStarting(starting: boolean): void;
}

/**
 * Home Assistant over MQTT as features on the bus: states, discovery, commands, bridge requests,
 * the rules' entities and the controls. Nothing about the devices is announced until the first
 * round of reads is in (or a time limit passes): discovery then lists only entities the devices
 * have data for, and each device's first state is complete.
 */
export function homeAssistant(options: HomeAssistantOptions): HomeAssistant {
  const { bus, mqtt, topics, logger, clock } = options;
  const work = new WorkInFlight();
  const abort = new AbortController();
  const send = sender(mqtt, logger, () => work.stopped);
  const naming = options.naming ?? "own";
  const states = new DeviceStates({ topics, send, clock, logger, givtcp: naming === "givtcp" });
  const discovery = new DiscoveryPublisher({
    topics,
    origin: options.origin,
    naming,
    enabled: options.discovery,
    states,
    mqtt,
    send,
    logger,
    keepNodes: options.keepNodes ?? [],
    stopped: () => work.stopped,
  });
  const rules = new RulesEntities({
    topics,
    origin: options.origin,
    discovery: options.discovery,
    logger,
    send,
    clock: rulesClockOn(clock),
    announced: () => states.announced,
  });
  const controls = controlsFeature({
    bus,
    states,
    readBack: options.readBack,
    writesToday: () => options.gate.writesToday()?.devices,
  });
  let announced: Promise<void> = Promise.resolve();
  let firstRound: () => void = () => undefined;
  const firstRoundIn = new Promise<void>((resolve) => {
    firstRound = resolve;
  });

  /** Everything retained, again; states go before discovery, so that an entity never reads a state without its key. */
  const republish = async (reconnected: boolean): Promise<void> => {
    states.publishAll();
    await discovery.publishAll(true);
    await rules.publishAll(reconnected);
    bus.emit("republish", { reconnected });
    logger.info({ devices: states.devices.size, reconnected }, "published discovery and state");
  };

  const announceAfter = async (): Promise<void> => {
    let cancel: (() => void) | undefined;
    await Promise.race([
      firstRoundIn,
      new Promise<void>((resolve) => {
        cancel = later(clock, options.announceWithinMs ?? 30_000, resolve);
      }),
      new Promise((resolve) => abort.signal.addEventListener("abort", resolve)),
    ]);
    cancel?.();
    if (work.stopped) return;
    states.announced = true;
    if (mqtt.connected) {
      await republish(false);
      if (!work.stopped) await discovery.removeStale();
    }
    if (!work.stopped) void controls.load(abort.signal);
  };

  const name = "homeassistant";
  const lifecycle: Feature = {
    name,
    async start() {
      states.setInventory(options.inventory());
      bus.on("firstRound", name, () => firstRound());
      bus.on("mqttConnected", name, ({ reconnected }) => {
        if (states.announced) void republish(reconnected);
      });
      bus.on("mqttMessage", name, ({ topic, payload }) => {
        if (topic === options.statusTopic && payload.trim() === "online" && states.announced) void republish(true);
      });
      await mqtt.subscribe(options.statusTopic);
      announced = announceAfter();
    },
    halt() {
      abort.abort();
    },
    async stop() {
      abort.abort();
      bus.removeAll(name);
      firstRound();
      await work.settle(clock, options.stopMs);
    },
  };

  return {
    features: [
      lifecycle,
      stateFeature({ bus, states, discovery }),
      controls,
      commandsFeature({
        bus,
        mqtt,
        topics,
        states,
        gate: options.gate,
        syncClock: options.syncClock,
        send,
        work,
        logger,
      }),
      bridgeRequestsFeature({
        bus,
        mqtt,
        topics,
        client: options.client,
        gate: options.gate,
        syncClock: options.syncClock,
        send,
        work,
      }),
      rulesEntitiesFeature({ bus, mqtt, rules, work }),
    ],
    get announced() {
      return announced;
    },
    attachRules: (runtime, attach = {}) => rules.attach(runtime, attach),
    rulesStarting: (starting) => rules.expect(starting),
  };
}
