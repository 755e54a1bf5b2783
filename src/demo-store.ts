import { dirname, join } from "node:path";
import type { Config } from "./config/index.js";

/** The demo house's store: beside the configured one, never the same file. */
export const DEMO_STORE_FILE = "demo.db";

/**
 * With no cloud configured the daemon runs the simulator's demo house. Its history, audit rows and
 * restore promises go to their own file, so that none of them end up in the store of the real
 * account configured later.
 */
export function withDemoStore(config: Config): Config {
  // A LAN-only daemon reads the real house: its store is the configured one.
  if (config.cloud.url || config.source === "local") return config;
  return { ...config, store: { ...config.store, path: join(dirname(config.store.path), DEMO_STORE_FILE) } };
}
