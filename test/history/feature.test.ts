import { describe, expect, it } from "vitest";
import { EventBus } from "../../src/bus/event-bus.js";
import { configSchema } from "../../src/config/index.js";
import { historyFeature } from "../../src/history/index.js";
import { createLogger } from "../../src/log/log.js";
import { cloudHistory } from "../../src/sources/index.js";
import { PUBLISHED_PRICES_KEEP_MS, type Store } from "../../src/store/index.js";
import { tempStore, useDemoAccount } from "./helpers.js";

const START = Date.UTC(2025, 5, 20, 11, 0, 0);

describe("the history feature on the bus", () => {
  const account = useDemoAccount(START);
  const featureOn = (bus: EventBus, store: Store) =>
    historyFeature({
      config: configSchema.parse({}),
      source: cloudHistory(account.sim.clientFor("owner")),
      store,
      bus,
      inventory: () => account.inventory,
      logger: createLogger("silent"),
      clock: account.sim.simulator.clock,
    });

  it("writes what telemetry fetched as rows at the times the devices measured, and goes on after a failing handler", async () => {
    const temp = tempStore("e2m-history-feature-");
    const failures: string[] = [];
    const bus = new EventBus(({ owner }) => failures.push(owner));
    const feature = featureOn(bus, temp.store);
    bus.on("fetched", "broken", () => {
      throw new Error("a feature that fails");
    });
    try {
      feature.start();
      bus.emit("fetched", {
        kind: "smart.data",
        uuid: "plug-1",
        at: START,
        points: [{ power: 42, measuredAt: Date.UTC(2025, 5, 20, 11, 0, 0) }],
      });
      const rows = [...temp.store.history.query({ kind: "smart.data", device: "plug-1" })];
      expect(rows.map((row) => [row.at, row.data])).toEqual([[Date.UTC(2025, 5, 20, 11, 0, 0), { power: 42 }]]);
      expect(failures).toEqual(["broken"]);
      expect(feature.failing).toBe(false);
    } finally {
      await feature.stop();
      temp.cleanup();
    }
  });

  it("drops the published prices past their keeping when it starts, with no retention configured", async () => {
    const temp = tempStore("e2m-history-feature-");
    const feature = featureOn(new EventBus(() => undefined), temp.store);
    const slot = (start: number) => ({ side: "import" as const, start, end: start + 1_800_000, price: 0.2 });
    const cutoff = START - PUBLISHED_PRICES_KEEP_MS;
    temp.store.publishedPrices.save([slot(cutoff - 1_800_000), slot(cutoff), slot(START - 1_800_000)]);
    try {
      feature.start();
      expect(temp.store.publishedPrices.between("import", 0, START).map((row) => row.start)).toEqual([
        cutoff,
        START - 1_800_000,
      ]);
    } finally {
      await feature.stop();
      temp.cleanup();
    }
  });

  it("stops listening when stopped", async () => {
    const temp = tempStore("e2m-history-feature-");
    const bus = new EventBus(() => undefined);
    const feature = featureOn(bus, temp.store);
    feature.start();
    expect(bus.listeners("fetched")).toBe(1);
    await feature.stop();
    expect([bus.listeners("fetched"), bus.listeners("availability"), bus.listeners("inventoryChanged")]).toEqual([
      0, 0, 0,
    ]);
    temp.cleanup();
  });
});
