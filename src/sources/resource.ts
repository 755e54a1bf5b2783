import type { Observable } from "rxjs";
import type { DeviceId } from "../vocabulary/device-id.js";
import type { Fetched } from "./fetched.js";

/** What a resource fetches, whichever path it goes by. */
export type ResourceKind =
  | "inverter.live"
  | "inverter.counters"
  | "inverter.events"
  | "ems"
  | "ev.status"
  | "ev.meter"
  | "ev.session"
  | "smart.data";

/** One thing polled on its own cadence, with its own backoff: e.g. one inverter's live data. */
export interface Resource {
  /** For logs and availability reasons, e.g. "inverter.live SD2024G001". */
  readonly name: string;
  /**
   * What it fetches and for which device serial: two paths' resources with the same `of` are
   * twins (`source: auto` pairs them by it). Left out by a resource no other path has.
   */
  readonly of?: { readonly kind: ResourceKind; readonly serial: string };
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
  /**
   * What this poll fetched, changed or not: the one answer the state and the history are both
   * made from. Undefined when the answer held nothing (no data point yet).
   */
  readonly fetched?: Fetched;
  /**
   * Devices that this poll says are unreachable (status LOST, charger offline), with why.
   * A device of `devices` left out is reachable as far as this resource knows.
   */
  readonly down?: Readonly<Record<DeviceId, string>>;
}
