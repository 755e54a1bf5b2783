import type { Config } from "../config/index.js";
import type { Origin, Topics } from "../homeassistant/index.js";
import type { LogEvent, LogFeed } from "../log/log.js";
import type { Availability } from "../telemetry/index.js";
import { deviceId, devicesOf, hasControls, type Inventory } from "../telemetry/index.js";
import { type Clock, every, later } from "../time/index.js";
import type { DeviceId } from "../vocabulary/device-id.js";
import type { RequestBudgetState } from "../vocabulary/request-budget.js";
import { bridgeDiscoveryMessages, bridgeTopics } from "./bridge-discovery.js";
import type {
  BridgeHealth,
  BridgeInfo,
  CloudRefusal,
  DevicePathHealth,
  MissingBlockHealth,
  StoreStatus,
} from "./bridge-payloads.js";
import type { Freshness } from "./freshness.js";

export const BRIDGE_HEALTH_INTERVAL_MS = 60_000;
/** After a warning or error, health is published again at most this often (the last-error entity). */
const PROBLEM_REPUBLISH_MS = 5_000;
const MINUTE_MS = 60_000;

export interface BridgeStatusOptions {
  readonly version: string;
  readonly config: Config;
  readonly cloud: { readonly url: string; readonly simulated: boolean };
  readonly topics: Topics;
  readonly origin: Origin;
  /** Publishes on the bridge's connection; never logs a failure (a log would come back here). */
  readonly publish: (topic: string, payload: string, retain: boolean) => Promise<void>;
  readonly connected: () => boolean;
  readonly budget: () => RequestBudgetState;
  readonly inventory: () => Inventory;
  /** How old each device's values are. */
  readonly freshness: Freshness;
  readonly store: () => StoreStatus;
  readonly rules: boolean;
  readonly feed?: LogFeed;
  readonly intervalMs?: number;
  /** The system clock by default. */
  readonly clock: Clock;
  readonly rssBytes?: () => number;
  /** The daily write budget and the writes of each device today (by serial), when the daemon counts them. */
  readonly writes?: () => { readonly budget: number; readonly devices: Readonly<Record<string, number>> } | undefined;
  /** With `source: auto`: each device's path, by device id. */
  readonly paths?: () => Readonly<Record<string, DevicePathHealth>>;
  /** The cloud's refusal while it refuses the daemon. */
  readonly refusal?: () => CloudRefusal | undefined;
  /** Over the LAN: the blocks each device's dongle leaves unanswered, by device id. */
  readonly missingBlocks?: () => Readonly<Record<string, readonly MissingBlockHealth[]>>;
}

export interface BridgeStatus {
  /** A cloud request finished: an HTTP status, or undefined when nothing answered. */
  cloudRequest(status: number | undefined): void;
  reading(reading: Availability): void;
  /** Info, discovery and health: after every (re)connection. */
  publishAll(): Promise<void>;
  /** Device counts changed: info again. */
  inventoryChanged(): void;
  health(): BridgeHealth;
  info(): BridgeInfo;
  stop(): void;
}

/** `<base>/bridge/info` (retained), `<base>/bridge/health` (retained, every minute) and `<base>/bridge/logging`. */
export function startBridgeStatus(options: BridgeStatusOptions): BridgeStatus {
  const clock = options.clock;
  const now = (): number => clock.now();
  const rss = options.rssBytes ?? (() => process.memoryUsage.rss());
  const startedAt = now();
  const topics = bridgeTopics(options.topics);
  const requestTimes: number[] = [];
  const available = new Map<DeviceId, boolean>();
  let reachable = false;
  let lastSuccess: number | undefined;
  const said = options.feed?.last;
  let lastError: (LogEvent & { at: number }) | undefined = said && { ...said, at: said.time };
  let cancelProblemTimer: (() => void) | undefined;

  const send = (topic: string, body: unknown, retain: boolean): Promise<void> => {
    if (!options.connected()) return Promise.resolve();
    return options.publish(topic, JSON.stringify(body), retain).catch(() => undefined);
  };

  const info = (): BridgeInfo => {
    const { config } = options;
    const inventory = options.inventory();
    return {
      version: options.version,
      started_at: new Date(startedAt).toISOString(),
      config: {
        cloud_host: options.cloud.simulated ? "simulator" : hostOf(options.cloud.url),
        simulated: options.cloud.simulated,
        requests_per_minute: config.cloud.requests_per_minute,
        poll_seconds: Object.fromEntries(Object.entries(config.poll).map(([key, ms]) => [key, ms / 1000])),
        rules: options.rules,
        dry_run: config.dry_run,
        discovery: config.homeassistant.discovery,
        history: options.store() !== "not open",
        log_level: config.log.level,
      },
      devices: {
        inverters: inventory.inverters.length,
        ems: inventory.ems.length,
        ev_chargers: inventory.evChargers.length,
        smart_devices: inventory.smartDevices.length,
        sites: inventory.sites.length,
      },
    };
  };

  const health = (): BridgeHealth => {
    const at = now();
    while (requestTimes.length > 0 && (requestTimes[0] ?? 0) <= at - MINUTE_MS) requestTimes.shift();
    const budget = options.budget();
    const devices: BridgeHealth["devices"] = {};
    const paths = options.paths?.() ?? {};
    const missing = options.missingBlocks?.() ?? {};
    for (const device of devicesOf(options.inventory())) {
      const id = deviceId(device);
      const fresh = options.freshness.of(device, at);
      const path = paths[id];
      devices[id] = {
        available: available.get(id) ?? fresh.age_seconds !== null,
        last_poll_age_seconds: fresh.age_seconds,
        stale: fresh.stale,
        poll_seconds: fresh.poll_seconds,
        ...(path ? { path } : {}),
        ...(missing[id]?.length ? { missing_blocks: [...(missing[id] ?? [])] } : {}),
      };
    }
    const refused = options.refusal?.();
    return {
      at: new Date(at).toISOString(),
      uptime_seconds: Math.round((at - startedAt) / 1000),
      memory_rss_mb: Math.round(rss() / 104_857.6) / 10,
      cloud: {
        reachable,
        last_success: lastSuccess === undefined ? null : new Date(lastSuccess).toISOString(),
        ...(options.refusal ? { refused: refused ?? null } : {}),
      },
      requests: { per_minute: requestTimes.length, used: budget.used, limit: budget.limit },
      devices,
      store: options.store(),
      writes_today: writesToday(),
      last_error: lastError
        ? { level: lastError.level, message: lastError.message, at: new Date(lastError.at).toISOString() }
        : null,
      cloud_connection: reachable && !refused ? "ON" : "OFF",
      requests_per_minute: requestTimes.length,
      last_error_text: lastError ? lastError.message.slice(0, 255) : "none",
    };
  };

  /** Every controllable device, 0 before its first write of the day. */
  const writesToday = (): BridgeHealth["writes_today"] => {
    const writes = options.writes?.();
    if (!writes) return null;
    const devices: Record<string, number> = {};
    for (const device of devicesOf(options.inventory()))
      if (hasControls(device)) devices[device.serial] = writes.devices[device.serial] ?? 0;
    return { budget: writes.budget, devices: { ...devices, ...writes.devices } };
  };

  const publishHealth = (): Promise<void> => send(topics.health, health(), true);

  const onProblem = (event: LogEvent): void => {
    lastError = { ...event, at: event.time };
    void send(topics.logging, { level: event.level, message: event.message }, false);
    cancelProblemTimer ??= later(clock, PROBLEM_REPUBLISH_MS, () => {
      cancelProblemTimer = undefined;
      void publishHealth();
    });
  };
  const unsubscribe = options.feed?.subscribe(onProblem);
  const stopTimer = every(clock, options.intervalMs ?? BRIDGE_HEALTH_INTERVAL_MS, () => void publishHealth(), {
    background: true,
  });

  return {
    cloudRequest(status) {
      const at = now();
      requestTimes.push(at);
      reachable = status !== undefined && status < 500;
      if (status !== undefined && status >= 200 && status < 300) lastSuccess = at;
    },
    reading(reading) {
      available.set(reading.device, reading.available);
    },
    async publishAll() {
      await send(topics.info, info(), true);
      if (options.config.homeassistant.discovery) {
        for (const message of bridgeDiscoveryMessages(options.topics, options.origin))
          await send(message.topic, message.payload, true);
      }
      await publishHealth();
    },
    inventoryChanged() {
      void send(topics.info, info(), true);
    },
    health,
    info,
    stop() {
      stopTimer();
      cancelProblemTimer?.();
      unsubscribe?.();
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "unknown";
  }
}
