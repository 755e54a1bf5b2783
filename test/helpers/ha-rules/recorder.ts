import mqtt, { type MqttClient } from "mqtt";
import type { RecordedMessage } from "./types.js";

export interface Recorded extends RecordedMessage {
  readonly at: number;
}

/**
 * Records every message on the filters in arrival order, with the retain flag as published: an
 * MQTT v5 subscription with retain-as-published (a 3.1.1 broker clears the flag on live
 * messages, which would hide whether a config or a removal was retained).
 */
export async function recordMqtt(url: string, filters: readonly string[]) {
  const client: MqttClient = await mqtt.connectAsync(url, {
    clientId: `ha_rules_${Math.random().toString(16).slice(2)}`,
    protocolVersion: 5,
    reconnectPeriod: 200,
  });
  const messages: Recorded[] = [];
  client.on("message", (topic, payload, packet) => {
    messages.push({ topic, payload: payload.toString("utf8"), retain: packet.retain, at: Date.now() });
  });
  await client.subscribeAsync([...filters], { qos: 1, rap: true });

  /** The first message since `since` that matches, waiting up to `timeoutMs`. */
  async function waitFor(match: (m: Recorded) => boolean, timeoutMs: number, since = 0): Promise<Recorded> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find((m) => m.at >= since && match(m));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching MQTT message within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Waits until no message matching `match` has arrived for `quietMs` (at most `timeoutMs`). */
  async function waitForQuiet(match: (m: Recorded) => boolean, quietMs: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const last = messages.findLast(match);
      if (!last || Date.now() - last.at >= quietMs) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }

  return {
    messages,
    waitFor,
    waitForQuiet,
    publish: (topic: string, payload: string, retain = false) =>
      client.publishAsync(topic, payload, { qos: 1, retain }),
    close: () => client.endAsync(true),
  };
}
