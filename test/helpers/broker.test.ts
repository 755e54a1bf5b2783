import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBroker, type TestBroker } from "./broker.js";

describe("test broker helper", () => {
  let broker: TestBroker;
  beforeAll(async () => {
    broker = await startTestBroker();
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it("never falls back to the embedded broker when REQUIRE_MOSQUITTO=1", () => {
    if (process.env.REQUIRE_MOSQUITTO === "1") expect(broker.kind).not.toBe("embedded");
    expect(broker.url).toMatch(/^mqtts?:\/\/[^:]+:\d+$/);
  });

  it("carries a retained message to a later subscriber", async () => {
    const publisher = await mqtt.connectAsync(broker.url, { clientId: `pub-${process.pid}` });
    await publisher.publishAsync("e2m-test/retained", "hello", { retain: true, qos: 1 });
    const subscriber = await mqtt.connectAsync(broker.url, { clientId: `sub-${process.pid}` });
    const received = new Promise<string>((resolve) => {
      subscriber.on("message", (topic, payload) => {
        if (topic === "e2m-test/retained") resolve(payload.toString());
      });
    });
    await subscriber.subscribeAsync("e2m-test/retained", { qos: 1 });
    expect(await received).toBe("hello");
    await publisher.publishAsync("e2m-test/retained", "", { retain: true, qos: 1 });
    await Promise.all([publisher.endAsync(), subscriber.endAsync()]);
  });
});
