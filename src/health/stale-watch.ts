import type { EventBus } from "../bus/event-bus.js";
import type { Logger } from "../log/log.js";
import { type Clock, every } from "../time/index.js";
import type { DeviceId } from "../vocabulary/device-id.js";
import type { RequestBudgetState } from "../vocabulary/request-budget.js";
import type { DeviceFreshness, Freshness } from "./freshness.js";

/** How often ages are checked: a device goes unavailable at most this long after its stated age. */
export const STALE_CHECK_MS = 5_000;

/**
 * Says on the bus when a device's values go stale and when they are fresh again, and makes it
 * unavailable (an availability verdict, as telemetry's own) once they are older than
 * `homeassistant.stale_after`: polls that wait on a throttled rate budget never fail, so without
 * this a device would show its last values as live for as long as the wait lasts. Back
 * available with the first fresh answer, unless telemetry itself holds it unavailable.
 */
export function watchStaleness(options: {
  readonly bus: EventBus;
  readonly owner: string;
  readonly freshness: Freshness;
  readonly clock: Clock;
  /** Where a device going stale is said, once each time, with why. */
  readonly logger?: Logger;
  /** The cloud's rate budget, to tell a device held by it from one whose polls do not answer. */
  readonly budget?: () => RequestBudgetState;
}): () => void {
  const { bus, owner, freshness, clock } = options;
  /** Telemetry's last verdict per device (not ours). */
  const verdicts = new Map<DeviceId, boolean>();
  const expired = new Set<DeviceId>();
  const stale = new Map<DeviceId, boolean>();
  let emitting = false;

  const say = (state: DeviceFreshness, available: boolean, at: number): void => {
    const reason = available
      ? "fresh values again"
      : `no fresh values for ${state.age_seconds ?? "(none yet) "}s, longer than homeassistant.stale_after (${freshness.staleAfterSeconds}s)`;
    emitting = true;
    try {
      bus.emit("availability", { kind: "availability", device: state.device, at, available, reason });
    } finally {
      emitting = false;
    }
  };

  const check = (): void => {
    const at = clock.now();
    for (const state of freshness.all(at)) {
      const id = state.device;
      if (stale.get(id) !== state.stale) {
        if (state.stale) options.logger?.warn({ device: id }, staleMessage(state, options.budget?.(), at));
        stale.set(id, state.stale);
        bus.emit("freshness", { device: id, stale: state.stale, at });
      }
      if (state.expired && !expired.has(id)) {
        expired.add(id);
        say(state, false, at);
      } else if (!state.expired && expired.delete(id) && verdicts.get(id) !== false) {
        say(state, true, at);
      }
    }
  };

  bus.on("availability", owner, (reading) => {
    if (!emitting) verdicts.set(reading.device, reading.available);
  });
  bus.on("polled", owner, (polled) => {
    freshness.record(polled);
    check();
  });
  return every(clock, STALE_CHECK_MS, check, { background: true });
}

/** Why a device went stale, in words: the rate budget holding its polls back, or polls that do not answer. */
export function staleMessage(state: DeviceFreshness, budget: RequestBudgetState | undefined, now: number): string {
  const age = state.age_seconds === null ? "no values yet" : `no fresh values for ${state.age_seconds} s`;
  const head = `${state.name}: ${age} (polled every ${state.poll_seconds} s)`;
  if (budget && (budget.waiting > 0 || budget.pausedUntil > now || budget.used >= budget.limit)) {
    const paused =
      budget.pausedUntil > now ? `, paused after a 429 for ${Math.ceil((budget.pausedUntil - now) / 1000)} s more` : "";
    return `${head}: the cloud's rate budget holds its polls back (${budget.used} of ${budget.limit} requests this minute used, ${budget.waiting} waiting${paused}); raise cloud.requests_per_minute if the account allows more, or poll less often`;
  }
  return `${head}: its polls did not answer in time; bridge/health and the log say why`;
}
