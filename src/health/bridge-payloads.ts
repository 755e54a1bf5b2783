import { z } from "zod";

/**
 * What the daemon publishes about itself on `<base>/bridge/info`, `<base>/bridge/health` and
 * `<base>/bridge/logging`, as Zigbee2MQTT does on its own bridge topics. No secrets: a host
 * name, never a URL with credentials, and never a token.
 */

export const bridgeInfoSchema = z.object({
  version: z.string(),
  started_at: z.iso.datetime(),
  config: z.object({
    /** The cloud's host name, or "simulator" for the built-in demo. */
    cloud_host: z.string(),
    simulated: z.boolean(),
    requests_per_minute: z.number().int(),
    /** Each poll cadence in seconds. */
    poll_seconds: z.record(z.string(), z.number()),
    rules: z.boolean(),
    dry_run: z.boolean(),
    discovery: z.boolean(),
    history: z.boolean(),
    log_level: z.string(),
  }),
  devices: z.object({
    inverters: z.number().int(),
    ems: z.number().int(),
    ev_chargers: z.number().int(),
    smart_devices: z.number().int(),
    sites: z.number().int(),
  }),
});
export type BridgeInfo = z.infer<typeof bridgeInfoSchema>;

export const storeStatusSchema = z.enum(["ok", "failing", "not open"]);
export type StoreStatus = z.infer<typeof storeStatusSchema>;

export const logEventSchema = z.object({
  level: z.enum(["warn", "error", "fatal"]),
  message: z.string(),
});

/** Where a device's live data comes from with `source: auto`, and since when. */
export const devicePathSchema = z.object({
  path: z.enum(["local", "cloud"]),
  /** The device's own setting: auto, or pinned to one path. */
  setting: z.enum(["auto", "local", "cloud"]),
  since: z.iso.datetime(),
  why: z.string(),
  switches: z.number().int(),
});
/** A block of registers a dongle leaves unanswered (src/sources/local/block-health.ts). */
export const missingBlockSchema = z.object({
  block: z.string(),
  misses: z.number().int(),
  answeredOnce: z.boolean(),
  retryAt: z.string(),
  lastError: z.string().optional(),
});

export type MissingBlockHealth = z.infer<typeof missingBlockSchema>;

export type DevicePathHealth = z.infer<typeof devicePathSchema>;

/** The cloud refuses this daemon (401/403): the likelier cause, and what the daemon does meanwhile. */
export const cloudRefusalSchema = z.object({
  status: z.number().int(),
  likelier: z.enum(["subscription", "token"]),
  message: z.string(),
  /** Set when dongles carry on without the cloud: what still works. */
  carrying_on: z.string().nullable(),
});
export type CloudRefusal = z.infer<typeof cloudRefusalSchema>;

export const bridgeHealthSchema = z.object({
  at: z.iso.datetime(),
  uptime_seconds: z.number().int(),
  memory_rss_mb: z.number(),
  cloud: z.object({
    /** The last request got an HTTP answer below 500. */
    reachable: z.boolean(),
    last_success: z.iso.datetime().nullable(),
    /** Set while the cloud refuses the daemon (401/403: a wrong token or no API subscription). */
    refused: cloudRefusalSchema.nullable().optional(),
  }),
  requests: z.object({
    /** Requests sent in the last 60 seconds. */
    per_minute: z.number().int(),
    /** Of the rate budget's current window. */
    used: z.number().int(),
    limit: z.number().int(),
  }),
  /**
   * By device id: seconds since its live values last came (a poll answered, changed or not; null
   * before the first), and stale once that is more than twice its poll interval.
   */
  devices: z.record(
    z.string(),
    z.object({
      available: z.boolean(),
      last_poll_age_seconds: z.number().nullable(),
      stale: z.boolean(),
      poll_seconds: z.number(),
      /** With `source: auto`: the path carrying its live data. */
      path: devicePathSchema.optional(),
      /** Over the LAN: the register blocks of its dongle that do not answer now, and when each is asked next. */
      missing_blocks: z.array(missingBlockSchema).optional(),
    }),
  ),
  store: storeStatusSchema,
  /**
   * The daily write budget (`control.write_budget`) and, by serial, the values written to each
   * controllable device since local midnight; null when the daemon keeps no count.
   */
  writes_today: z.object({ budget: z.number().int(), devices: z.record(z.string(), z.number().int()) }).nullable(),
  last_error: logEventSchema.extend({ at: z.iso.datetime() }).nullable(),
  /** Flat values for the bridge's Home Assistant entities, so their templates stay one key each. */
  cloud_connection: z.enum(["ON", "OFF"]),
  requests_per_minute: z.number().int(),
  /** The last warning or error, cut to a state's 255 characters; "none" before the first. */
  last_error_text: z.string().max(255),
});
export type BridgeHealth = z.infer<typeof bridgeHealthSchema>;
