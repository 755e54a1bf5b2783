import { describe, expect, it } from "vitest";
import type { App } from "../src/app/index.js";
import { startupBanner } from "../src/app/startup-banner.js";
import { inventory } from "./homeassistant/entities/inventory.js";

const app = (overrides: Partial<App>): App => ({
  inventory,
  cloudUrl: "http://127.0.0.1:40123/v1",
  mqttUrl: "mqtt://127.0.0.1:1883",
  simulated: true,
  storePath: "data/demo.db",
  brokerMoved: false,
  webUrl: undefined,
  stop: async () => {},
  ...overrides,
});

describe("the start-up banner", () => {
  it("prints commands to watch and to change something with the broker's real host and port", () => {
    const text = startupBanner(app({ mqttUrl: "mqtt://127.0.0.1:1886", brokerMoved: true }), "energy2mqtt", "1.0.0");
    expect(text).toContain("mosquitto_sub -h 127.0.0.1 -p 1886 -t 'energy2mqtt/#' -v");
    expect(text).toContain(
      "mosquitto_pub -h 127.0.0.1 -p 1886 -t energy2mqtt/sd2024g001/set/battery_operating_range_reserve_percent -m 20",
    );
    expect(text).toContain("port 1883 is taken, so it listens on 1886");
    expect(text).toContain("broker 127.0.0.1 and port 1886");
    expect(text).not.toMatch(/-p 1883/);
  });

  it("gives the web page's address when it is served, and says nothing of it otherwise", () => {
    expect(startupBanner(app({ webUrl: "http://127.0.0.1:8099/" }), "energy2mqtt", "1.0.0")).toContain(
      "  Web:    http://127.0.0.1:8099/ (the house now, the plan, the history and every change)",
    );
    expect(startupBanner(app({}), "energy2mqtt", "1.0.0")).not.toContain("Web:");
  });

  it("says nothing about a taken port when the broker got its own, and hides a broker password", () => {
    const text = startupBanner(
      app({ mqttUrl: "mqtt://me:s3cret@broker.lan:1883", simulated: false }),
      "house",
      "1.0.0",
    );
    expect(text).not.toContain("taken");
    expect(text).not.toContain("s3cret");
    expect(text).toContain("mosquitto_sub -h broker.lan -p 1883 -t 'house/#' -v");
  });

  it("names the demo's own store, and no store line for a real account", () => {
    expect(startupBanner(app({}), "energy2mqtt", "1.0.0")).toContain("  Store:  data/demo.db (the demo's own;");
    expect(
      startupBanner(app({ simulated: false, storePath: "data/energy2mqtt.db" }), "energy2mqtt", "1.0.0"),
    ).not.toContain("Store:");
  });

  it("says when the demo runs its own rules, and nothing of rules otherwise", () => {
    const text = startupBanner(app({ demoRules: "/opt/e2m/config/rules.demo.yaml" }), "energy2mqtt", "1.0.0");
    expect(text).toContain("  Rules:  the demo's own, in dry run (/opt/e2m/config/rules.demo.yaml)");
    expect(text).toContain("npx energy2mqtt rules plan");
    expect(startupBanner(app({}), "energy2mqtt", "1.0.0")).not.toContain("Rules:");
  });

  it("leaves out the example change when no inverter has the battery reserve", () => {
    const text = startupBanner(app({ inventory: { ...inventory, inverters: [] } }), "energy2mqtt", "1.0.0");
    expect(text).not.toContain("mosquitto_pub");
  });
});
