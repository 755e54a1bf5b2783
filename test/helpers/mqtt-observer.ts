import mqtt, { type MqttClient } from "mqtt";

export interface Observed {
  readonly topic: string;
  readonly payload: string;
  readonly retain: boolean;
  readonly at: number;
}

/** An MQTT client that records every message on the given filters, for assertions. */
export async function observe(url: string, filters: readonly string[]) {
  const client: MqttClient = await mqtt.connectAsync(url, {
    clientId: `observer_${Math.random().toString(16).slice(2)}`,
    reconnectPeriod: 200,
  });
  const messages: Observed[] = [];
  const latest = new Map<string, Observed>();
  client.on("message", (topic, payload, packet) => {
    const message = { topic, payload: payload.toString(), retain: packet.retain, at: Date.now() };
    messages.push(message);
    latest.set(topic, message);
  });
  client.on("connect", () => {
    void client.subscribeAsync([...filters], { qos: 1 });
  });
  await client.subscribeAsync([...filters], { qos: 1 });

  /** Resolves with the first message (recorded since `since`) that satisfies `match`. */
  async function waitFor(match: (m: Observed) => boolean, timeoutMs = 10_000, since = 0): Promise<Observed> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = messages.find((m) => m.at >= since && match(m));
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no matching MQTT message within ${timeoutMs} ms (saw ${messages.length} messages)`);
  }

  return {
    client,
    messages,
    latest,
    waitFor,
    publish: (topic: string, payload: string, retain = false) =>
      client.publishAsync(topic, payload, { qos: 1, retain }),
    close: () => client.endAsync(true),
  };
}
