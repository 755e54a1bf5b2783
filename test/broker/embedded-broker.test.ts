import mqtt from "mqtt";
import { describe, expect, it } from "vitest";
import { startEmbeddedBroker } from "../../src/broker/index.js";

describe("embedded broker", () => {
  it("serves MQTT 3.1.1 publish and subscribe on a free port", async () => {
    const broker = await startEmbeddedBroker({ port: 0 });
    try {
      expect(broker.port).toBeGreaterThan(0);
      const client = await mqtt.connectAsync(broker.url, { protocolVersion: 4 });
      const received = new Promise<string>((resolve) =>
        client.on("message", (_t, payload) => resolve(payload.toString())),
      );
      await client.subscribeAsync("a/b");
      await client.publishAsync("a/b", "42");
      expect(await received).toBe("42");
      await client.endAsync();
    } finally {
      await broker.close();
    }
  });

  it("moves to the next port when the first is taken", async () => {
    const first = await startEmbeddedBroker({ port: 0 });
    try {
      const second = await startEmbeddedBroker({ port: first.port, portAttempts: 5 });
      expect(second.port).toBeGreaterThan(first.port);
      await second.close();
    } finally {
      await first.close();
    }
  });
});
