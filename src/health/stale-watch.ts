import type { EventBus } from "../bus.js";
import type { DeviceId } from "../device-id.js";
import { type Clock, every } from "../time/index.js";
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
