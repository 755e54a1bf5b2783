import { afterEach, describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/index.js";
import { bridgeHealthSchema, bridgeInfoSchema } from "../../src/health/bridge-payloads.js";
import { Freshness } from "../../src/health/freshness.js";
import { type BridgeStatus, startBridgeStatus } from "../../src/health/mqtt-bridge.js";
import { Topics } from "../../src/homeassistant/topics.js";
import { LogFeed } from "../../src/log/log.js";
import type { Inventory } from "../../src/sources/index.js";
import { VirtualClock } from "../../src/time/virtual-clock.js";
import { deviceIdOf } from "../../src/vocabulary/device-id.js";
import type { RequestBudgetState } from "../../src/vocabulary/request-budget.js";

const T0 = Date.parse("2026-01-10T12:00:00Z");

const inventory = {
  account: { id: 1, name: "me" },
  timezone: "Europe/London",
  inverters: [{ kind: "inverter", serial: "SA1", controllable: true }],
  ems: [],
  evChargers: [{ kind: "ev_charger", uuid: "C-1" }],
  smartDevices: [],
  sites: [{}],
} as unknown as Inventory;

describe("the bridge's status topics", () => {
  let status: BridgeStatus | undefined;
  afterEach(() => {
    status?.stop();
  });

  const start = (
    overrides: {
      connected?: boolean;
      feed?: LogFeed;
      writes?: () => { budget: number; devices: Record<string, number> } | undefined;
    } = {},
  ) => {
    const clock = new VirtualClock(T0);
    const sent: { topic: string; body: unknown; retain: boolean }[] = [];
    const budget: RequestBudgetState = {
      limit: 300,
      configured: 300,
      rateLimitedInARow: 0,
      used: 12,
      inFlight: 0,
      waiting: 0,
      windowEndsAt: undefined,
      pausedUntil: 0,
      expectedLive: 0,
    };
    const config = configSchema.parse({
      cloud: { url: "https://user:pw@api.example.cloud/v1", token: "s3cr3t" },
      mqtt: { username: "energy2mqtt", password: "mqttpw" },
      dry_run: true,
    });
    const freshness = new Freshness({
      poll: config.poll,
      staleAfterMs: config.homeassistant.stale_after,
      inventory: () => inventory,
      startedAt: clock.now(),
    });
    status = startBridgeStatus({
      version: "1.2.3",
      config,
      cloud: { url: "https://user:pw@api.example.cloud/v1", simulated: false },
      topics: new Topics("e2m", "ha"),
      origin: { name: "energy2mqtt", sw_version: "1.2.3", support_url: "" },
      publish: async (topic, payload, retain) => {
        sent.push({ topic, body: payload === "" ? "" : JSON.parse(payload), retain });
      },
      connected: () => overrides.connected ?? true,
      budget: () => budget,
      inventory: () => inventory,
      freshness,
      store: () => "ok",
      rules: true,
      clock,
      rssBytes: () => 60 * 1_048_576,
      ...(overrides.feed ? { feed: overrides.feed } : {}),
      ...(overrides.writes ? { writes: overrides.writes } : {}),
    });
    return { clock, sent, status, freshness };
  };

  it("describes the set-up in bridge/info without any secret", async () => {
    const { sent, status } = start();
    await status.publishAll();
    const info = sent.find((m) => m.topic === "e2m/bridge/info");
    expect(info?.retain).toBe(true);
    const body = bridgeInfoSchema.parse(info?.body);
    expect(body).toMatchObject({
      version: "1.2.3",
      config: { cloud_host: "api.example.cloud", rules: true, dry_run: true, requests_per_minute: 300 },
      devices: { inverters: 1, ems: 0, ev_chargers: 1, smart_devices: 0, sites: 1 },
    });
    expect(body.config.poll_seconds.inverter).toBe(60);
    const everything = JSON.stringify(sent);
    for (const secret of ["s3cr3t", "mqttpw", "user:pw"]) expect(everything).not.toContain(secret);
  });

  it("counts the requests of the last minute, knows whether the cloud answers, and each device's last read", () => {
    const { clock, status, freshness } = start();
    status.cloudRequest(200);
    clock.advance(30_000);
    freshness.record({ resource: "ev.status C-1", devices: [deviceIdOf("C-1")], periodMs: 30_000, at: clock.now() });
    status.cloudRequest(200);
    clock.advance(40_000);
    let health = bridgeHealthSchema.parse(status.health());
    // The first request is more than a minute old.
    expect(health.requests).toEqual({ per_minute: 1, used: 12, limit: 300 });
    expect(health.cloud).toEqual({ reachable: true, last_success: new Date(T0 + 30_000).toISOString() });
    expect(health.devices).toEqual({
      sa1: { available: false, last_poll_age_seconds: null, stale: false, poll_seconds: 60 },
      "c-1": { available: true, last_poll_age_seconds: 40, stale: false, poll_seconds: 30 },
    });
    expect(health.uptime_seconds).toBe(70);
    expect(health.memory_rss_mb).toBe(60);
    status.cloudRequest(undefined);
    health = status.health();
    expect(health.cloud.reachable).toBe(false);
    status.cloudRequest(503);
    expect(status.health().cloud.reachable).toBe(false);
    status.cloudRequest(429);
    expect(status.health().cloud.reachable).toBe(true);
    // Past twice its 30 s poll interval with no answer, the charger's values are stale; past twice 60 s, the inverter's.
    clock.advance(30_000);
    expect(status.health().devices["c-1"]).toMatchObject({ last_poll_age_seconds: 70, stale: true });
    expect(status.health().devices.sa1).toMatchObject({ stale: false });
    // Never read: counted from the first poll that answered (the charger's, 30 s after the start).
    clock.advance(60_000);
    expect(status.health().devices.sa1).toMatchObject({ last_poll_age_seconds: null, stale: true });
  });

  it("gives each controllable device's writes today and the budget, 0 before its first write", () => {
    const counts: Record<string, number> = {};
    const { status } = start({ writes: () => ({ budget: 100, devices: { ...counts } }) });
    expect(bridgeHealthSchema.parse(status.health()).writes_today).toEqual({ budget: 100, devices: { SA1: 0 } });
    counts.SA1 = 7;
    expect(bridgeHealthSchema.parse(status.health()).writes_today).toEqual({ budget: 100, devices: { SA1: 7 } });
    status.stop();
    expect(bridgeHealthSchema.parse(start().status.health()).writes_today).toBeNull();
  });

  it("publishes health every minute, retained, and not while MQTT is down", async () => {
    const { clock, sent } = start();
    await clock.advanceAsync(60_000);
    await clock.advanceAsync(60_000);
    const healths = sent.filter((m) => m.topic === "e2m/bridge/health");
    expect(healths).toHaveLength(2);
    expect(healths.every((m) => m.retain)).toBe(true);
    status?.stop();
    const offline = start({ connected: false });
    await offline.clock.advanceAsync(120_000);
    expect(offline.sent).toEqual([]);
  });

  it("publishes warnings and errors on bridge/logging, and the last one in health soon after", async () => {
    const feed = new LogFeed();
    const { clock, sent } = start({ feed });
    feed.push({ level: "warn", message: "poll failed", time: T0 + 1_000 });
    expect(sent).toEqual([
      { topic: "e2m/bridge/logging", body: { level: "warn", message: "poll failed" }, retain: false },
    ]);
    await clock.advanceAsync(5_000);
    const health = bridgeHealthSchema.parse(sent.find((m) => m.topic === "e2m/bridge/health")?.body);
    expect(health.last_error).toEqual({
      level: "warn",
      message: "poll failed",
      at: new Date(T0 + 1_000).toISOString(),
    });
  });

  it("stops following the feed when stopped", () => {
    const feed = new LogFeed();
    const { sent, status } = start({ feed });
    status.stop();
    feed.push({ level: "error", message: "late", time: T0 });
    expect(sent).toEqual([]);
  });
});
