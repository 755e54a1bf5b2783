import { afterEach, describe, expect, it } from "vitest";
import { type DaemonEvents, EventBus } from "../../src/bus/event-bus.js";
import { configSchema } from "../../src/config/index.js";
import { Freshness } from "../../src/health/freshness.js";
import { staleMessage, watchStaleness } from "../../src/health/stale-watch.js";
import { createLogger } from "../../src/log/log.js";
import type { Inventory } from "../../src/sources/index.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";
import { deviceIdOf } from "../../src/vocabulary/device-id.js";

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

  it("logs a device going stale once, with the rate budget as the reason when it holds the polls back", () => {
    const clock = new VirtualClock(T0);
    const bus = new EventBus(({ error }) => {
      throw error;
    });
    const config = configSchema.parse({});
    const freshness = new Freshness({
      poll: config.poll,
      staleAfterMs: config.homeassistant.stale_after,
      inventory: () => inventory,
      startedAt: T0,
    });
    const lines: { level: number; msg: string }[] = [];
    const logger = createLogger("info", { destination: { write: (line: string) => lines.push(JSON.parse(line)) } });
    const budget = { limit: 1, configured: 1, rateLimitedInARow: 0, used: 1, inFlight: 0, waiting: 3 };
    stop = watchStaleness({
      bus,
      owner: "health",
      freshness,
      clock,
      logger,
      budget: () => ({ ...budget, windowEndsAt: undefined, pausedUntil: 0, expectedLive: 1 }),
    });
    bus.emit("polled", { resource: "inverter.live SA1", devices: [SA1], periodMs: 60_000, at: clock.now() });
    for (let step = 0; step < 60; step++) clock.advance(5_000);
    expect(lines.map((line) => line.msg)).toEqual([
      "Inverter SA1: no fresh values for 125 s (polled every 60 s): the cloud's rate budget holds its polls back (1 of 1 requests this minute used, 3 waiting); raise cloud.requests_per_minute if the account allows more, or poll less often",
    ]);
    expect(lines[0]?.level).toBe(40);
    // Fresh, then stale again: said again, once.
    bus.emit("polled", { resource: "inverter.live SA1", devices: [SA1], periodMs: 60_000, at: clock.now() });
    for (let step = 0; step < 30; step++) clock.advance(5_000);
    expect(lines).toHaveLength(2);
  });

  it("says a device's polls did not answer when the budget is not what holds it", () => {
    const fresh = {
      device: SA1,
      name: "Inverter SA1",
      age_seconds: 130,
      poll_seconds: 60,
      stale: true,
      expired: false,
    };
    const idle = { limit: 300, configured: 300, rateLimitedInARow: 0, used: 4, inFlight: 0, waiting: 0 };
    const state = { ...idle, windowEndsAt: undefined, pausedUntil: 0, expectedLive: 1 };
    expect(staleMessage(fresh, state, T0)).toBe(
      "Inverter SA1: no fresh values for 130 s (polled every 60 s): its polls did not answer in time; bridge/health and the log say why",
    );
    expect(staleMessage(fresh, { ...state, pausedUntil: T0 + 42_000 }, T0)).toContain(
      ", paused after a 429 for 42 s more",
    );
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
