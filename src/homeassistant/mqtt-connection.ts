import mqtt, { type IClientOptions, type MqttClient } from "mqtt";
import type { Logger } from "../log.js";

export interface MqttConnectionOptions {
  readonly url: string;
  readonly username?: string;
  readonly password?: string;
  readonly clientId?: string;
  /** Published retained by the broker if we vanish. */
  readonly will: { readonly topic: string; readonly payload: string };
  readonly logger: Logger;
  /** Called on every (re)connection, after subscriptions are in place: publish discovery and state again. */
  readonly onConnect: (reconnected: boolean) => Promise<void>;
  readonly onMessage: (topic: string, payload: string) => void;
  readonly subscriptions: readonly string[];
}

const MIN_RECONNECT_MS = 1_000;
const MAX_RECONNECT_MS = 30_000;

/**
 * One MQTT connection: last will, subscriptions, reconnection with backoff (doubling up to
 * 30 s, reset once connected), and a re-publish hook after every reconnection, since a broker
 * that restarted without persistence has lost every retained message.
 */
export class MqttConnection {
  private client: MqttClient | undefined;
  private connectedBefore = false;
  private closing = false;

  constructor(private readonly options: MqttConnectionOptions) {}

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** Resolves at the first connection; rejects with a clear message when the broker refuses us. */
  start(): Promise<void> {
    const { options } = this;
    const clientOptions: IClientOptions = {
      clientId: options.clientId ?? `energy2mqtt_${Math.random().toString(16).slice(2, 10)}`,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: MIN_RECONNECT_MS,
      connectTimeout: 10_000,
      // mqtt-packet's cache holds a Buffer for every 16-bit number: 6 MB of heap for a daemon
      // that sends a few messages a minute.
      writeCache: false,
      will: { topic: options.will.topic, payload: Buffer.from(options.will.payload), retain: true, qos: 1 },
      ...(options.username ? { username: options.username } : {}),
      ...(options.password ? { password: options.password } : {}),
    };
    const client = mqtt.connect(options.url, clientOptions);
    this.client = client;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      client.on("connect", () => {
        client.options.reconnectPeriod = MIN_RECONNECT_MS;
        const reconnected = this.connectedBefore;
        this.connectedBefore = true;
        options.logger.info({ url: redactUrl(options.url), reconnected }, "MQTT connected");
        void client
          .subscribeAsync([...options.subscriptions], { qos: 1 })
          .then(() => options.onConnect(reconnected))
          .catch((error: unknown) =>
            options.logger.error({ err: error }, "MQTT: could not subscribe or publish after connecting"),
          );
        if (!settled) {
          settled = true;
          resolve();
        }
      });
      client.on("message", (topic, payload) => options.onMessage(topic, payload.toString("utf8")));
      client.on("close", () => {
        if (this.closing) return;
        const next = Math.min(MAX_RECONNECT_MS, (client.options.reconnectPeriod ?? MIN_RECONNECT_MS) * 2);
        client.options.reconnectPeriod = next;
        options.logger.warn({ retryInMs: next }, "MQTT connection lost; reconnecting");
      });
      client.on("error", (error) => {
        const refused = /Not authorized|Bad username or password|Connection refused: (Not|Bad)/i.test(error.message);
        if (!settled && refused) {
          settled = true;
          reject(
            new Error(
              `the MQTT broker at ${redactUrl(options.url)} refused the connection: ${error.message}. Check mqtt.username and mqtt.password.`,
            ),
          );
          void client.endAsync(true);
          return;
        }
        options.logger.warn({ err: error.message }, "MQTT error");
      });
    });
  }

  /** Publishes now, or queues until the broker is back (mqtt.js keeps QoS 1 messages while offline). */
  async publish(topic: string, payload: string, options: { retain?: boolean } = {}): Promise<void> {
    const client = this.client;
    if (!client) throw new Error("MQTT is not started");
    await client.publishAsync(topic, payload, { qos: 1, retain: options.retain ?? false });
  }

  /**
   * The retained messages under `filter` right now: subscribes, waits until an echo sent to
   * `markerTopic` comes back (the broker delivers a subscription's retained messages before
   * anything published after it), then unsubscribes. Empty when not connected or on time-out.
   */
  async collectRetained(filter: string, markerTopic: string, timeoutMs = 5000): Promise<Map<string, string>> {
    const client = this.client;
    const found = new Map<string, string>();
    if (!client?.connected) return found;
    const marker = `${markerTopic}/${Math.random().toString(16).slice(2, 10)}`;
    let done: () => void = () => undefined;
    const echoed = new Promise<void>((resolve) => {
      done = resolve;
    });
    const listener = (topic: string, payload: Buffer, packet: { retain?: boolean }): void => {
      if (topic === marker) done();
      else if (packet.retain && topicMatches(filter, topic)) found.set(topic, payload.toString("utf8"));
    };
    client.on("message", listener);
    let timer: NodeJS.Timeout | undefined;
    try {
      await client.subscribeAsync([filter, marker], { qos: 1 });
      await client.publishAsync(marker, "sync", { qos: 1 });
      await Promise.race([
        echoed,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      await client.unsubscribeAsync([filter, marker]);
    } finally {
      clearTimeout(timer);
      client.off("message", listener);
    }
    return found;
  }

  /** Sends `payload` to `topic` (the bridge's offline state) and disconnects, within `timeoutMs`. */
  async stop(final?: { topic: string; payload: string }, timeoutMs = 1000): Promise<void> {
    this.closing = true;
    const client = this.client;
    if (!client) return;
    const goodbye = async (): Promise<void> => {
      if (final && client.connected) await client.publishAsync(final.topic, final.payload, { qos: 1, retain: true });
      await client.endAsync(false);
    };
    // unref: after a quick goodbye, the deadline must not keep the process alive until it passes.
    await Promise.race([goodbye(), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    await client.endAsync(true).catch(() => undefined);
  }
}

/** A broker URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}

/** MQTT topic filter matching with + and # wildcards. */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split("/");
  const t = topic.split("/");
  for (let i = 0; i < f.length; i++) {
    if (f[i] === "#") return true;
    if (i >= t.length || (f[i] !== "+" && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}
