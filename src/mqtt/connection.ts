import mqtt, { type IClientOptions, type MqttClient } from "mqtt";
import type { Logger } from "../log/log.js";
import { type Clock, later } from "../time/index.js";
import { redactUrl, tlsOptions } from "./client-options.js";
import { isTlsTrustError, type MqttTls, tlsAdvice } from "./tls.js";
import { topicMatches } from "./topic-match.js";

export interface MqttConnectionOptions {
  readonly url: string;
  readonly username?: string;
  readonly password?: string;
  readonly clientId?: string;
  /** CA, client certificate and key for mqtts:// and wss:// (mqtt.ca, mqtt.cert, mqtt.key). */
  readonly tls?: MqttTls;
  /** Published retained by the broker if we vanish. */
  readonly will: { readonly topic: string; readonly payload: string };
  readonly logger: Logger;
  /** Called on every (re)connection, after subscriptions are in place: publish discovery and state again. */
  readonly onConnect: (reconnected: boolean) => Promise<void>;
  readonly onMessage: (topic: string, payload: string) => void;
  /** The time-outs of a scan and of the goodbye run on it. */
  readonly clock: Clock;
}

/** The broker will not have us (credentials, certificate): a configuration problem, not an outage. */
export class MqttRefusedError extends Error {
  override readonly name = "MqttRefusedError";
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
  /** Rejects a start() still waiting for its first connection, when stop() comes first. */
  private abandonStart: ((error: Error) => void) | undefined;
  /** Ends waits (a scan of retained messages) that a stop must not sit out. */
  private readonly cancels = new Set<() => void>();
  /** Every filter asked for, subscribed again on each (re)connection. */
  private readonly filters = new Set<string>();

  constructor(private readonly options: MqttConnectionOptions) {}

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** Adds `filter` to the subscriptions: at once when connected, and after every reconnection. */
  async subscribe(filter: string): Promise<void> {
    if (this.filters.has(filter)) return;
    this.filters.add(filter);
    if (this.client?.connected) await this.client.subscribeAsync(filter, { qos: 1 });
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
      ...tlsOptions(options.tls),
    };
    const client = mqtt.connect(options.url, clientOptions);
    this.client = client;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      this.abandonStart = (error) => {
        if (settled) return;
        settled = true;
        reject(error);
      };
      client.on("connect", () => {
        client.options.reconnectPeriod = MIN_RECONNECT_MS;
        const reconnected = this.connectedBefore;
        this.connectedBefore = true;
        options.logger.info({ url: redactUrl(options.url), reconnected }, "MQTT connected");
        const filters = [...this.filters];
        void (filters.length === 0 ? Promise.resolve() : client.subscribeAsync(filters, { qos: 1 }))
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
        // Refused credentials and an untrusted certificate do not mend by retrying: fail the start.
        const refused = refusal(error);
        if (!settled && refused) {
          settled = true;
          reject(new MqttRefusedError(`the MQTT broker at ${redactUrl(options.url)} ${refused}`));
          void client.endAsync(true);
          return;
        }
        options.logger.warn({ err: refused ?? error.message }, "MQTT error");
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
    let cancelTimer: (() => void) | undefined;
    let cancel: (() => void) | undefined;
    // Bounded as a whole: with the broker gone, a subscribe or publish would wait for it forever.
    const work = (async () => {
      await client.subscribeAsync([filter, marker], { qos: 1 });
      await client.publishAsync(marker, "sync", { qos: 1 });
      await echoed;
    })();
    try {
      await Promise.race([
        work.catch(() => undefined),
        new Promise<void>((resolve) => {
          cancelTimer = later(this.options.clock, timeoutMs, resolve);
          cancel = resolve;
          this.cancels.add(resolve);
        }),
      ]);
    } finally {
      cancelTimer?.();
      if (cancel) this.cancels.delete(cancel);
      client.off("message", listener);
      if (client.connected) void client.unsubscribeAsync([filter, marker]).catch(() => undefined);
    }
    return found;
  }

  /** Sends `payload` to `topic` (the bridge's offline state) and disconnects, within `timeoutMs`. */
  async stop(final?: { topic: string; payload: string }, timeoutMs = 1000): Promise<void> {
    this.closing = true;
    for (const cancel of this.cancels) cancel();
    this.abandonStart?.(new Error("stopped before the MQTT broker answered"));
    const client = this.client;
    if (!client) return;
    const goodbye = async (): Promise<void> => {
      // Without a broker there is no one to say goodbye to: waiting would only wait for the timeout.
      if (!client.connected) return;
      if (final) await client.publishAsync(final.topic, final.payload, { qos: 1, retain: true });
      await client.endAsync(false);
    };
    // The timer is cleared once the goodbye is done: a pending one would keep the process alive.
    let cancelTimer: (() => void) | undefined;
    await Promise.race([
      goodbye().catch(() => undefined),
      new Promise<void>((resolve) => {
        cancelTimer = later(this.options.clock, timeoutMs, resolve);
      }),
    ]);
    cancelTimer?.();
    await client.endAsync(true).catch(() => undefined);
  }
}

/** Why the broker will not have us, with what to change; undefined for failures that retrying may mend. */
export function refusal(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (/Not authorized|Bad username or password|Connection refused: (Not|Bad)/i.test(message))
    return `refused the connection: ${message}. Check mqtt.username and mqtt.password.`;
  if (isTlsTrustError(error)) return `could not be trusted: ${tlsAdvice(error)}`;
  return undefined;
}
