import type { Observable } from "rxjs";
import type { CallOptions, CloudClient } from "../cloud/index.js";
import type { DeviceId } from "../device-id.js";
import type { Fetched } from "./fetched.js";
import type { Reading } from "./readings.js";

/** One thing polled on its own cadence, with its own backoff: e.g. one inverter's live data. */
export interface Resource {
  /** For logs and availability reasons, e.g. "inverter.live SD2024G001". */
  readonly name: string;
  /** deviceId() of every device whose availability this resource speaks for. */
  readonly devices: readonly DeviceId[];
  /** Undefined: polled only at start, on refresh and on `triggers`. */
  readonly periodMs?: number;
  /** Extra moments to poll at once, e.g. an EV charger's status change. */
  readonly triggers?: Observable<unknown>;
  /** Requests an hour beyond one per poll, whatever the period (a data-point page filling up); for planning the budget. */
  readonly extraPerHour?: number;
  poll(signal: AbortSignal): Promise<PollResult>;
}

export interface PollResult {
  /** Every reading of this poll, changed or not: unchanged ones are dropped further on. */
  readonly readings: readonly Reading[];
  /**
   * Devices that this poll says are unreachable (status LOST, charger offline), with why.
   * A device of `devices` left out is reachable as far as this resource knows.
   */
  readonly down?: Readonly<Record<DeviceId, string>>;
  /** What this poll fetched, for the history: the same answer feeds the state and the store. */
  readonly fetched?: readonly Fetched[];
}

/** What the pipelines need to make requests. */
export interface ResourceContext {
  readonly client: CloudClient;
  /** Epoch ms: readings' `at`, today's date, query windows. */
  readonly now: () => number;
  /** The account's time zone, for the service's local datetimes. */
  readonly timezone: string;
}

/** Telemetry is live traffic: it yields to commands in the shared rate budget, and stop() aborts it. */
export function live(signal: AbortSignal): CallOptions {
  return { priority: "live", signal };
}
