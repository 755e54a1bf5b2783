import type { CallOptions, CloudClient } from "../../cloud/index.js";

/** What the cloud's resources need to make requests. */
export interface ResourceContext {
  readonly client: CloudClient;
  /** Epoch ms: what they fetched is stamped with it; today's date, query windows. */
  readonly now: () => number;
  /** The account's time zone, for the service's local datetimes. */
  readonly timezone: string;
}

/** Telemetry is live traffic: it yields to commands in the shared rate budget, and stop() aborts it. */
export function live(signal: AbortSignal): CallOptions {
  return { priority: "live", signal };
}
