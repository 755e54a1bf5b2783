import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GridCounters } from "../../src/rules-runtime/index.js";
import { startTestBroker, type TestBroker } from "../helpers/broker.js";
import { baseTopic, FakeRuntime, ManualClock, startBridge } from "./rules-harness.js";

let broker: TestBroker;
beforeAll(async () => {
  broker = await startTestBroker();
});
afterAll(async () => {
  await broker.stop();
});

/** Economy 7 style: 8.5p from 00:30 to 05:30 (UTC in winter), 30p otherwise; export 15p. */
function priceAt(at: number) {
  const minutes = (at % 86_400_000) / 60_000;
  return { import: minutes >= 30 && minutes < 330 ? 0.085 : 0.3, export: 0.15 };
}

interface Counters {
  readonly serial: string;
  readonly at: number;
  readonly grid: GridCounters;
}

/** Today's grid counters of one inverter at an instant, as the rules feature takes them from telemetry. */
function counters(at: string, gridImport: number, gridExport: number, serial = "SD2024G001"): Counters {
  return { serial, at: Date.parse(at), grid: { import: gridImport, export: gridExport } };
}

async function setup(now: string) {
  const base = baseTopic();
  const clock = new ManualClock(Date.parse(now));
  const runtime = new FakeRuntime([], priceAt, clock);
  const harness = await startBridge(broker, base);
  await harness.bridge.attachRules(runtime, { clock });
  await harness.observer.waitFor((m) => m.topic === `${base}/rules`);
  const state = (payload: string) =>
    JSON.parse(payload) as { today_cost: number | null; today_cost_last_reset: string };
  /** Counters into the rules' cost, as the rules feature does: no publish when the cost stays. */
  const take = ({ serial, at, grid }: Counters): void => {
    if (runtime.addCounters(serial, at, grid)) harness.bridge.bus.emit("rulesChanged", { rules: runtime.list() });
  };
  /** Feeds counters and returns the state they caused. */
  const feed = async (reading: Counters) => {
    const mark = harness.observer.messages.length;
    take(reading);
    return state((await harness.seen(mark, (m) => m.topic === `${base}/rules`)).payload);
  };
  return { ...harness, clock, base, feed, take, state };
}

describe("today's cost from the grid counters", () => {
  it("is unavailable until counters arrive, then integrates import and export at each moment's price", async () => {
    const { observer, base, feed, stop } = await setup("2026-01-15T22:00:00Z");
    try {
      const availability = () => observer.latest.get(`${base}/rules/cost/availability`)?.payload;
      expect(JSON.parse(observer.latest.get(`${base}/rules`)?.payload ?? "{}")).toMatchObject({ today_cost: null });
      expect(availability()).toBe("offline");

      // The first reading is a baseline: what came before it was bought at prices we did not see.
      expect(await feed(counters("2026-01-15T22:00:00Z", 10, 2))).toEqual(
        expect.objectContaining({ today_cost: 0, today_cost_last_reset: "2026-01-15T22:00:00.000Z" }),
      );
      await observer.waitFor((m) => m.topic === `${base}/rules/cost/availability` && m.payload === "online");

      // +1 kWh at 30p, -0.5 kWh exported at 15p.
      expect((await feed(counters("2026-01-15T23:00:00Z", 11, 2.5))).today_cost).toBeCloseTo(0.225, 10);
      expect((await feed(counters("2026-01-15T23:50:00Z", 11.5, 2.5))).today_cost).toBeCloseTo(0.375, 10);

      // Midnight: the cost starts again, and the inverter's own counter was reset too.
      const afterMidnight = await feed(counters("2026-01-16T00:10:00Z", 0.4, 0));
      expect(afterMidnight.today_cost_last_reset).toBe("2026-01-16T00:00:00.000Z");
      expect(afterMidnight.today_cost).toBeCloseTo(0.12, 10); // 0.4 kWh at 30p

      // The cheap rate from 00:30: 2 kWh at 8.5p.
      expect((await feed(counters("2026-01-16T01:00:00Z", 2.4, 0))).today_cost).toBeCloseTo(0.29, 10);
      // Exporting only: the cost goes down.
      const exporting = await feed(counters("2026-01-16T01:30:00Z", 2.4, 0.2));
      expect(exporting).toEqual({ ...exporting, today_cost: 0.26, today_cost_last_reset: "2026-01-16T00:00:00.000Z" });
    } finally {
      await stop();
    }
  });

  it("adds up the counters of several inverters", async () => {
    const { feed, take, stop } = await setup("2026-01-15T10:00:00Z");
    try {
      await feed(counters("2026-01-15T10:00:00Z", 5, 0, "SA1"));
      take(counters("2026-01-15T10:01:00Z", 7, 0, "SA2")); // a baseline: nothing to publish
      expect((await feed(counters("2026-01-15T11:00:00Z", 6, 0, "SA1"))).today_cost).toBeCloseTo(0.3, 10);
      expect((await feed(counters("2026-01-15T11:01:00Z", 9, 0, "SA2"))).today_cost).toBeCloseTo(0.9, 10);
    } finally {
      await stop();
    }
  });

  it("resets at local midnight by the clock, and leaves yesterday's energy out when the inverter resets late", async () => {
    // Summer: London midnight is 23:00 UTC.
    const { clock, base, feed, observer, take, seen, state, stop } = await setup("2026-07-01T20:00:00Z");
    try {
      await feed(counters("2026-07-01T20:00:00Z", 3, 0));
      expect((await feed(counters("2026-07-01T22:00:00Z", 4, 0))).today_cost).toBeCloseTo(0.3, 10);

      const mark = observer.messages.length;
      clock.at = Date.parse("2026-07-01T23:00:30Z");
      await clock.tick();
      const reset = state((await seen(mark, (m) => m.topic === `${base}/rules`)).payload);
      expect(reset).toEqual({ ...reset, today_cost: 0, today_cost_last_reset: "2026-07-01T23:00:00.000Z" });

      // The inverter's counter has not been reset yet: its increase since 22:00 was yesterday's.
      take(counters("2026-07-01T23:05:00Z", 4.5, 0));
      // Then it resets: everything it counts now is today's, at the night price of 30p (not 00:30-05:30 UTC yet).
      expect((await feed(counters("2026-07-01T23:20:00Z", 0.5, 0))).today_cost).toBeCloseTo(0.15, 10);
    } finally {
      await stop();
    }
  });
});
