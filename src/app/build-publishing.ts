import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { Config } from "../config/index.js";
import { type ControlGate, ControlReadBack } from "../control/index.js";
import { bridgeNode } from "../health/index.js";
import { type ClockSyncNow, type HomeAssistant, homeAssistant, Topics } from "../homeassistant/index.js";
import type { Logger } from "../log/log.js";
import { type Mqtt, type MqttTls, mqttFeature } from "../mqtt/index.js";
import type { AccountReads, DeviceSource } from "../sources/index.js";
import { type Inventory, type TelemetryFeature, telemetryFeature } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import type { DevicesById } from "./build-gate.js";

/** Home Assistant's share of the stop: commands under way finish and are answered. */
const COMMANDS_STOP_MS = 400;
/** The MQTT connection's share of the stop: offline published, the connection closed. */
const MQTT_STOP_MS = 400;

/** The daemon as Home Assistant's device registry and the bridge's info name it. */
export const ORIGIN = { name: "energy2mqtt", support_url: "https://github.com/energy2mqtt/energy2mqtt" };

/** What reads the devices and publishes them: the polls, the MQTT connection and Home Assistant. */
export interface Publishing {
  readonly topics: Topics;
  readonly telemetry: TelemetryFeature;
  readonly mqtt: Feature & Mqtt;
  readonly ha: HomeAssistant;
}

/**
 * The polls (telemetry), the MQTT connection and Home Assistant's side: discovery, states, and the
 * commands that go to the gate and are read back.
 */
export function buildPublishing(options: {
  readonly config: Config;
  readonly version: string;
  readonly mqttUrl: string;
  readonly tls: MqttTls | undefined;
  readonly source: DeviceSource;
  /** What answers the bridge's account requests: the cloud, or else the LAN's refusals. */
  readonly account: AccountReads;
  readonly gate: ControlGate;
  /** Sets a device's clock now, as `bridge/request/clock/sync` asks. */
  readonly syncClock: ClockSyncNow;
  readonly devicesById: DevicesById;
  readonly inventory: () => Inventory;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly clock: Clock;
}): Publishing {
  const { config, version, source, gate, devicesById, inventory, bus, logger, clock } = options;
  const topics = new Topics(config.mqtt.base_topic, config.homeassistant.discovery_prefix);
  const telemetry = telemetryFeature({ source, poll: config.poll, bus, inventory, logger, clock });
  const mqtt = mqttFeature({
    bus,
    url: options.mqttUrl,
    ...(config.mqtt.username ? { username: config.mqtt.username } : {}),
    ...(config.mqtt.password ? { password: config.mqtt.password } : {}),
    ...(config.mqtt.client_id ? { clientId: config.mqtt.client_id } : {}),
    ...(options.tls ? { tls: options.tls } : {}),
    stateTopic: topics.bridgeState,
    logger,
    clock,
    stopMs: MQTT_STOP_MS,
  });
  const ha = homeAssistant({
    bus,
    mqtt,
    topics,
    statusTopic: config.homeassistant.status_topic,
    discovery: config.homeassistant.discovery,
    naming: config.homeassistant.naming,
    origin: { ...ORIGIN, sw_version: version },
    client: options.account,
    gate,
    syncClock: options.syncClock,
    // Through the gate: a pause the daemon holds reads as the mode and slot it keeps.
    readBack: new ControlReadBack(gate.reads, gate, devicesById, logger),
    inventory,
    logger,
    clock,
    keepNodes: [bridgeNode(topics)],
    stopMs: COMMANDS_STOP_MS,
  });
  return { topics, telemetry, mqtt, ha };
}
