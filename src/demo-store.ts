import { dirname, join } from "node:path";
import type { Config } from "./config/index.js";

/** The demo house's store: beside the configured one, never the same file. */
export const DEMO_STORE_FILE = "demo.db";

/**
 * Days of history the demo house has before the daemon starts: four weeks, what the optimiser
 * learns the house's use and solar from (the daemon's backfill reads the last three into the
 * demo's store at once, and the store keeps what comes after).
 */
export const DEMO_HISTORY_DAYS = 28;

/** No cloud configured and no LAN to read (a LAN-only daemon reads the real house): the demo house runs. */
export function isDemo(config: Config): boolean {
  return !config.cloud.url && config.source !== "local";
}

/**
 * With no cloud configured the daemon runs the simulator's demo house. Its history, audit rows and
 * restore promises go to their own file, so that none of them end up in the store of the real
 * account configured later.
 */
export function withDemoStore(config: Config): Config {
  if (!isDemo(config)) return config;
  return { ...config, store: { ...config.store, path: join(dirname(config.store.path), DEMO_STORE_FILE) } };
}
