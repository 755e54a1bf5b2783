import type { CloudClient } from "../cloud/client.js";
import type { Logger } from "../log.js";
import type { SettingCache } from "./setting-cache.js";

/** What each kind of change needs from the gate. */
export interface ChangeContext {
  readonly client: CloudClient;
  readonly cache: SettingCache;
  readonly logger: Logger;
  readonly signal?: AbortSignal;
}

/** Changes jump the rate budget's queue: a person or a rule is waiting for them. */
export function callOptions(context: ChangeContext): { priority: "command"; signal?: AbortSignal } {
  return context.signal ? { priority: "command", signal: context.signal } : { priority: "command" };
}
