import { describe, expect, it } from "vitest";
import { DiscoveryRegistry } from "../../src/homeassistant/discovery-registry.js";

function recorder() {
  const sent: { topic: string; payload: string; retain: boolean }[] = [];
  const registry = new DiscoveryRegistry(async (topic, payload, retain) => {
    sent.push({ topic, payload, retain });
  });
  return { registry, sent };
}

const config = (topic: string, name: string) => ({ topic, payload: { name } });

describe("DiscoveryRegistry", () => {
  it("sends each config once, and again only when it changed", async () => {
    const { registry, sent } = recorder();
    await registry.sync([config("ha/sensor/a/x/config", "X"), config("ha/sensor/a/y/config", "Y")]);
    await registry.sync([config("ha/sensor/a/x/config", "X"), config("ha/sensor/a/y/config", "Y")]);
    await registry.sync([config("ha/sensor/a/x/config", "X2"), config("ha/sensor/a/y/config", "Y")]);
    expect(sent.map((m) => `${m.topic}=${m.payload}`)).toEqual([
      'ha/sensor/a/x/config={"name":"X"}',
      'ha/sensor/a/y/config={"name":"Y"}',
      'ha/sensor/a/x/config={"name":"X2"}',
    ]);
    expect(sent.every((m) => m.retain)).toBe(true);
  });

  it("removes a config that stops applying with an empty retained payload", async () => {
    const { registry, sent } = recorder();
    await registry.sync([config("ha/sensor/a/x/config", "X"), config("ha/sensor/a/y/config", "Y")]);
    const result = await registry.sync([config("ha/sensor/a/x/config", "X")]);
    expect(result).toEqual({ sent: 0, removed: 1 });
    expect(sent.at(-1)).toEqual({ topic: "ha/sensor/a/y/config", payload: "", retain: true });
    expect([...registry.topics]).toEqual(["ha/sensor/a/x/config"]);
  });

  it("sends everything again when forced (Home Assistant's birth, a broker that lost its retained messages)", async () => {
    const { registry, sent } = recorder();
    await registry.sync([config("ha/sensor/a/x/config", "X")]);
    await registry.sync([config("ha/sensor/a/x/config", "X")], true);
    expect(sent).toHaveLength(2);
  });
});

describe("DiscoveryRegistry, one device at a time", () => {
  it("compares and removes only that device's configs, whoever sent the others", async () => {
    const { registry, sent } = recorder();
    await registry.sync([config("ha/sensor/a/x/config", "X"), config("ha/sensor/b/y/config", "Y")]);
    sent.length = 0;
    const result = await registry.sync([config("ha/sensor/a/z/config", "Z")], false, "a");
    expect(result).toEqual({ sent: 1, removed: 1 });
    expect(sent.map((m) => `${m.topic}=${m.payload}`)).toEqual([
      "ha/sensor/a/x/config=",
      'ha/sensor/a/z/config={"name":"Z"}',
    ]);
    expect([...registry.topics].sort()).toEqual(["ha/sensor/a/z/config", "ha/sensor/b/y/config"]);
  });
});
