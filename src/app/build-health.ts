import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { Config } from "../config/index.js";
import type { ControlGate } from "../control/index.js";
import { type Freshness, healthFeature } from "../health/index.js";
import type { HistoryFeature } from "../history/index.js";
import type { Topics } from "../homeassistant/index.js";
import type { LogFeed, Logger } from "../log/log.js";
import type { Mqtt } from "../mqtt/index.js";
import { type CloudAccess, type CloudTarget, NO_CLOUD } from "../sources/cloud/index.js";
import type { Store } from "../store/index.js";
import type { Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import { deviceIdOf } from "../vocabulary/device-id.js";
import type { RequestBudgetReader } from "../vocabulary/request-budget.js";
import { ORIGIN } from "./build-publishing.js";
import type { Sources } from "./build-sources.js";

/**
 * The bridge's health on MQTT (info, discovery and health go out with Home Assistant's, after
 * every (re)connection) and devices going stale.
 */
export function buildHealth(options: {
  readonly config: Config;
  readonly version: string;
  readonly cloud: CloudTarget | undefined;
  readonly access: CloudAccess | undefined;
  readonly budget: RequestBudgetReader;
  readonly topics: Topics;
  readonly mqtt: Mqtt;
  readonly inventory: () => Inventory;
  readonly freshness: Freshness;
  readonly store: Store | undefined;
  readonly history: HistoryFeature | undefined;
  readonly rules: boolean;
  readonly gate: ControlGate;
  readonly feed: LogFeed | undefined;
  readonly sources: Sources;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly clock: Clock;
}): Feature {
  const { config, version, access, budget, mqtt, store, history, gate, bus, clock } = options;
  const { paths, local } = options.sources;
  return healthFeature({
    bus,
    status: {
      version,
      config,
      cloud: options.cloud ?? NO_CLOUD,
      topics: options.topics,
      origin: { ...ORIGIN, sw_version: version },
      publish: (topic, payload, retain) => mqtt.publish(topic, payload, { retain }),
      connected: () => mqtt.connected,
      budget: () => budget.state(),
      inventory: options.inventory,
      freshness: options.freshness,
      store: () => (!store ? "not open" : history?.failing ? "failing" : "ok"),
      rules: options.rules,
      writes: () => gate.writesToday(),
      ...(options.feed ? { feed: options.feed } : {}),
      clock,
      ...(paths ? { paths } : {}),
      ...(access ? { refusal: () => access.refusal() } : {}),
      ...(local ? { missingBlocks: () => byDeviceId(local.missingBlocks()) } : {}),
    },
    // Info, discovery and health go out with Home Assistant's, after every (re)connection.
    republishOn: (status) => bus.on("republish", "health", () => status.publishAll()),
    logger: options.logger,
  });
}

/** A record by serial keyed by device id instead. */
function byDeviceId<T>(bySerial: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.entries(bySerial).map(([serial, value]) => [deviceIdOf(serial), value]));
}
