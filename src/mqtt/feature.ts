import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { Logger } from "../log/log.js";
import type { Clock } from "../time/index.js";
import { MqttConnection } from "./connection.js";
import type { MqttTls } from "./tls.js";

/** What a feature gets of the one MQTT connection (Zigbee2MQTT's `mqtt.ts`); inbound messages come on the bus. */
export interface Mqtt {
  /** Whether the connection is up right now. */
  readonly connected: boolean;
  /** Publishes at QoS 1, or queues until the broker is back; a failure is thrown to the caller. */
  publish(topic: string, payload: string, options?: { readonly retain?: boolean }): Promise<void>;
  /** Subscribes `filter` now and after every reconnection; its messages come as `mqttMessage` on the bus. */
  subscribe(filter: string): Promise<void>;
  /** The retained messages under `filter` right now (see MqttConnection.collectRetained). */
  collectRetained(filter: string, markerTopic: string): Promise<Map<string, string>>;
}

export interface MqttFeatureOptions {
  readonly bus: EventBus;
  readonly url: string;
  readonly username?: string;
  readonly password?: string;
  readonly clientId?: string;
  readonly tls?: MqttTls;
  /** `<base>/bridge/state`: `{"state":"online"}` on every connection, the last will `{"state":"offline"}`. */
  readonly stateTopic: string;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The goodbye's share of a stop: offline published and the connection closed. */
  readonly stopMs: number;
}

const ONLINE = JSON.stringify({ state: "online" });
const OFFLINE = JSON.stringify({ state: "offline" });

/**
 * The daemon's one MQTT connection as a feature: started first, stopped last. Every (re)connection
 * says the bridge is online and is told on the bus (`mqttConnected`); every message that comes in
 * goes on the bus (`mqttMessage`), so that a feature handles a new topic by subscribing to it.
 */
export function mqttFeature(options: MqttFeatureOptions): Feature & Mqtt {
  const { bus, logger } = options;
  const connection = new MqttConnection({
    url: options.url,
    ...(options.username ? { username: options.username } : {}),
    ...(options.password ? { password: options.password } : {}),
    ...(options.clientId ? { clientId: options.clientId } : {}),
    ...(options.tls ? { tls: options.tls } : {}),
    will: { topic: options.stateTopic, payload: OFFLINE },
    logger,
    clock: options.clock,
    onConnect: async (reconnected) => {
      await connection.publish(options.stateTopic, ONLINE, { retain: true });
      bus.emit("mqttConnected", { reconnected });
    },
    onMessage: (topic, payload) => bus.emit("mqttMessage", { topic, payload }),
  });
  return {
    name: "mqtt",
    get connected() {
      return connection.connected;
    },
    publish: (topic, payload, publishOptions = {}) => connection.publish(topic, payload, publishOptions),
    subscribe: (filter) => connection.subscribe(filter),
    collectRetained: (filter, markerTopic) => connection.collectRetained(filter, markerTopic),
    start: () => connection.start(),
    stop: () => connection.stop({ topic: options.stateTopic, payload: OFFLINE }, options.stopMs),
  };
}
