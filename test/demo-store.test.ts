import { describe, expect, it } from "vitest";
import { configSchema } from "../src/config/index.js";
import { DEMO_RULES_FILE, withDemoRules } from "../src/demo/rules.js";
import { isDemo, withDemoStore } from "../src/demo/store.js";
import { loadRules } from "../src/rules/index.js";

describe("the demo house's own store", () => {
  it("goes beside the configured store, as demo.db, when no cloud is configured", () => {
    const config = withDemoStore(configSchema.parse({ store: { path: "/var/lib/e2m/house.db" } }));
    expect(config.store.path).toBe("/var/lib/e2m/demo.db");
  });

  it("leaves a real account's store where it is configured", () => {
    const config = withDemoStore(
      configSchema.parse({ cloud: { url: "http://127.0.0.1:1/v1", token: "t" }, store: { path: "data/e2m.db" } }),
    );
    expect(config.store.path).toBe("data/e2m.db");
  });
});

describe("the demo house's own rules", () => {
  it("are the demo's rules file, in dry run, when nothing names a cloud, a LAN or a rules file", () => {
    const config = withDemoRules(configSchema.parse({}));
    expect(config.rules).toBe(DEMO_RULES_FILE);
    const { rules } = loadRules(DEMO_RULES_FILE);
    expect(rules.dry_run).toBe(true);
    expect(rules.rules.some((rule) => rule.when.some((trigger) => trigger.optimise !== undefined))).toBe(true);
  });

  it("give way to the user's own rules file", () => {
    expect(withDemoRules(configSchema.parse({ rules: "mine.yaml" })).rules).toBe("mine.yaml");
  });

  it("never run on a real house: a configured cloud or the LAN", () => {
    const cloud = configSchema.parse({ cloud: { url: "http://127.0.0.1:1/v1", token: "t" } });
    expect(withDemoRules(cloud).rules).toBeUndefined();
    const lan = configSchema.parse({ source: "local", local: [{ host: "127.0.0.1" }] });
    expect(isDemo(lan)).toBe(false);
    expect(withDemoRules(lan).rules).toBeUndefined();
  });
});
