import type { Logger } from "pino";
import { EventBus } from "../../src/bus/event-bus.js";
import type { Feature } from "../../src/bus/feature.js";
import type { CloudClient } from "../../src/cloud/client.js";
import { type ControlGate, ControlReadBack } from "../../src/control/index.js";
import { homeAssistant, type Topics } from "../../src/homeassistant/index.js";
import { mqttFeature } from "../../src/mqtt/index.js";
import { cloudControl } from "../../src/sources/index.js";
import type { Inventory } from "../../src/telemetry/index.js";
import { type Clock, systemClock } from "../../src/time/clock.js";

/**
 * Home Assistant as the daemon wires it, on a bus of its own: the one MQTT connection and every
 * Home Assistant feature, started in order, the first round of reads said to be in at once.
 * Readings and changes are emitted on `bus`.
 */
export async function startHomeAssistant(options: {
  readonly url: string;
  readonly topics: Topics;
  readonly statusTopic: string;
  readonly discovery: boolean;
  readonly origin: { name: string; sw_version: string; support_url: string };
  readonly client: CloudClient;
  readonly gate: ControlGate;
  readonly inventory: Inventory;
  readonly logger: Logger;
  readonly clock?: Clock;
  /** The bus the gate tells its changes on; a new one by default. */
  readonly bus?: EventBus;
  /** Leave the first round of reads to the test (`firstRound()`), as when the devices are slow to answer. */
  readonly holdFirstRound?: boolean;
}) {
  const { logger, gate, inventory } = options;
  const clock = options.clock ?? systemClock;
  const bus = options.bus ?? testBus(logger);
  const mqtt = mqttFeature({
    bus,
    url: options.url,
    stateTopic: options.topics.bridgeState,
    logger,
    clock,
    stopMs: 750,
  });
  const devices = {
    inverter: (serial: string) =>
      inventory.inverters.find((i) => i.serial === serial) ?? inventory.ems.find((e) => e.serial === serial),
    charger: (uuid: string) => inventory.evChargers.find((c) => c.uuid === uuid),
  };
  const ha = homeAssistant({
    bus,
    mqtt,
    topics: options.topics,
    statusTopic: options.statusTopic,
    discovery: options.discovery,
    origin: options.origin,
    client: options.client,
    gate,
    readBack: new ControlReadBack(cloudControl(options.client), gate, devices, logger),
    inventory: () => inventory,
    logger,
    clock,
    stopMs: 750,
  });
  const started: Feature[] = [];
  for (const feature of [mqtt, ...ha.features]) {
    await feature.start();
    started.push(feature);
  }
  const firstRound = async (): Promise<void> => {
    bus.emit("firstRound", { at: clock.now() });
    await ha.announced;
  };
  if (!options.holdFirstRound) await firstRound();
  return {
    firstRound,
    bus,
    ha,
    mqtt,
    attachRules: ha.attachRules,
    rulesStarting: ha.rulesStarting,
    stop: async () => {
      for (const feature of started.reverse()) await feature.stop();
    },
  };
}

/** A bus whose failing handlers are logged. */
export function testBus(logger: Logger): EventBus {
  return new EventBus(({ event, owner, error }) => logger.error({ err: error, event, owner }, "handler failed"));
}
