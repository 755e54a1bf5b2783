import { describe, expect, it } from "vitest";
import { configSchema } from "../src/config/index.js";
import { withDemoStore } from "../src/demo-store.js";

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
