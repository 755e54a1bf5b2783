import { dirname, join } from "node:path";
import type { Config } from "../config/index.js";

/** The demo house's store: beside the configured one, never the same file. */
export const DEMO_STORE_FILE = "demo.db";

/**
 * Days of history the demo house has before the daemon starts: a week, more than the daemon's
 * backfill reads into the demo's store at its first start (its last three days), from which the
 * optimiser learns the house's use and solar; the store keeps what comes after. The simulator
 * integrates each of these days for each inverter before its first answer.
 */
export const DEMO_HISTORY_DAYS = 7;

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
