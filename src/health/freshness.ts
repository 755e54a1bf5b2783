import type { Config } from "../config/index.js";
import type { PollSucceeded } from "../telemetry/index.js";
import { type Device, deviceId, deviceName, devicesOf, type Inventory } from "../telemetry/index.js";
import type { DeviceId } from "../vocabulary/device-id.js";

/** A device's values are stale once older than this many of its poll intervals. */
export const STALE_POLLS = 2;

/** How fresh one device's values are, as bridge/health, the health file and the web page say it. */
export interface DeviceFreshness {
  readonly device: DeviceId;
  readonly name: string;
  /** Seconds since its last values; null before the first. */
  readonly age_seconds: number | null;
  readonly poll_seconds: number;
  /** Older than twice the poll interval (or none yet, that long after the start). */
  readonly stale: boolean;
  /** Older than `homeassistant.stale_after` (never sooner than stale): Home Assistant shows it unavailable. */
  readonly expired: boolean;
}

export interface FreshnessOptions {
  readonly poll: Config["poll"];
  readonly staleAfterMs: number;
  readonly inventory: () => Inventory;
  /** When the daemon started: a device never read is as old as that, or as the first poll answered if one has. */
  readonly startedAt: number;
}

interface LastPoll {
  readonly at: number;
  readonly periodMs: number;
}

/**
 * When each device's live values last came, and whether they are too old to show as live. A
 * device's live values are those of its most frequent poll (an inverter's system data, not its
 * five-minute totals), counted from every answer, changed or not.
 */
export class Freshness {
  private readonly polls = new Map<DeviceId, Map<string, LastPoll>>();
  /** Polls start a while after the daemon (the device lists, MQTT): a device not yet read counts from here. */
  private firstPollAt: number | undefined;

  constructor(private readonly options: FreshnessOptions) {}

  record(polled: PollSucceeded): void {
    const { periodMs, at } = polled;
    if (periodMs === undefined) return;
    this.firstPollAt ??= at;
    for (const device of polled.devices) {
      let resources = this.polls.get(device);
      if (!resources) {
        resources = new Map();
        this.polls.set(device, resources);
      }
      resources.set(polled.resource, { at: Math.max(resources.get(polled.resource)?.at ?? 0, at), periodMs });
    }
  }

  of(device: Device, now: number): DeviceFreshness {
    const id = deviceId(device);
    let live: LastPoll | undefined;
    for (const poll of this.polls.get(id)?.values() ?? []) if (!live || poll.periodMs < live.periodMs) live = poll;
    const read = live?.at;
    const pollMs = live?.periodMs ?? pollIntervalOf(device, this.options.poll);
    const age = now - (read ?? this.firstPollAt ?? this.options.startedAt);
    const staleMs = STALE_POLLS * pollMs;
    return {
      device: id,
      name: deviceName(device),
      age_seconds: read === undefined ? null : Math.max(0, Math.round(age / 1000)),
      poll_seconds: pollMs / 1000,
      stale: age > staleMs,
      expired: age > Math.max(staleMs, this.options.staleAfterMs),
    };
  }

  all(now: number): DeviceFreshness[] {
    return devicesOf(this.options.inventory()).map((device) => this.of(device, now));
  }

  /** The age past which a device shows unavailable, in seconds, for the reasons given. */
  get staleAfterSeconds(): number {
    return this.options.staleAfterMs / 1000;
  }
}

function pollIntervalOf(device: Device, poll: Config["poll"]): number {
  switch (device.kind) {
    case "inverter":
      return poll.inverter;
    case "ems":
      return poll.ems;
    case "ev_charger":
      return poll.ev_charger;
    case "smart_device":
      return poll.smart_device;
  }
}
