import { afterEach, describe, expect, it } from "vitest";
import { type DaemonEvents, EventBus } from "../../src/bus.js";
import { configSchema } from "../../src/config/index.js";
import { deviceIdOf } from "../../src/device-id.js";
import { Freshness } from "../../src/health/freshness.js";
import { watchStaleness } from "../../src/health/stale-watch.js";
import type { Inventory } from "../../src/sources/index.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";

const T0 = Date.parse("2026-01-10T12:00:00Z");
const SA1 = deviceIdOf("SA1");
const inventory = {
  inverters: [{ kind: "inverter", serial: "SA1" }],
  ems: [],
  evChargers: [],
  smartDevices: [],
} as unknown as Inventory;

describe("stale values", () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  const start = () => {
    const clock = new VirtualClock(T0);
    const bus = new EventBus(({ error }) => {
      throw error;
    });
    const config = configSchema.parse({ homeassistant: { stale_after: "3m" } });
    const freshness = new Freshness({
      poll: config.poll,
      staleAfterMs: config.homeassistant.stale_after,
      inventory: () => inventory,
      startedAt: T0,
    });
    const said: { event: string; at: number; body: DaemonEvents["availability"] | DaemonEvents["freshness"] }[] = [];
    bus.on("availability", "test", (body) => void said.push({ event: "availability", at: clock.now(), body }));
    bus.on("freshness", "test", (body) => void said.push({ event: "freshness", at: clock.now(), body }));
    stop = watchStaleness({ bus, owner: "health", freshness, clock });
    const polled = () =>
      bus.emit("polled", { resource: "inverter.live SA1", devices: [SA1], periodMs: 60_000, at: clock.now() });
    return { clock, bus, said, polled };
  };

  it("says a device stale past twice its poll interval, unavailable past stale_after, and available with fresh values", () => {
    const { clock, said, polled } = start();
    polled();
    expect(said).toEqual([{ event: "freshness", at: T0, body: { device: SA1, stale: false, at: T0 } }]);
    clock.advance(120_000);
    expect(said).toHaveLength(1);
    clock.advance(5_000);
    expect(said[1]).toEqual({
      event: "freshness",
      at: T0 + 125_000,
      body: { device: SA1, stale: true, at: T0 + 125_000 },
    });
    clock.advance(55_000);
    expect(said).toHaveLength(2);
    clock.advance(5_000);
    expect(said[2]).toMatchObject({
      event: "availability",
      at: T0 + 185_000,
      body: {
        device: SA1,
        available: false,
        reason: "no fresh values for 185s, longer than homeassistant.stale_after (180s)",
      },
    });
    clock.advance(60_000);
    polled();
    expect(said.slice(3).map((one) => [one.event, one.body])).toEqual([
      ["freshness", { device: SA1, stale: false, at: T0 + 245_000 }],
      [
        "availability",
        { kind: "availability", device: SA1, at: T0 + 245_000, available: true, reason: "fresh values again" },
      ],
    ]);
  });

  it("leaves a device unavailable that telemetry itself holds unavailable", () => {
    const { clock, bus, said, polled } = start();
    polled();
    clock.advance(190_000);
    bus.emit("availability", { kind: "availability", device: SA1, at: clock.now(), available: false, reason: "lost" });
    polled();
    expect(said.filter((one) => one.event === "availability" && "available" in one.body && one.body.available)).toEqual(
      [],
    );
  });
});
