import type { DeviceId } from "../vocabulary/device-id.js";
import type { Outcome } from "./poll-loop.js";
import type { Availability } from "./states.js";

interface ResourceHealth {
  failures: number;
  lastError: string;
  /** Why this resource says the device is unreachable; undefined when it says nothing of the kind. */
  down: string | undefined;
  succeeded: boolean;
}

type Verdict = { readonly available: boolean; readonly reason: string };

/**
 * Availability per device from the outcomes of its resources: unavailable once one of them
 * has failed `threshold` times in a row or says the device is lost or offline; available
 * again once none does. Only changes come out.
 */
export class Health {
  private readonly byDevice = new Map<DeviceId, Map<string, ResourceHealth>>();
  private readonly published = new Map<DeviceId, boolean>();

  constructor(private readonly threshold: number) {}

  record(outcome: Outcome, at: number): Availability[] {
    const out: Availability[] = [];
    for (const device of outcome.resource.devices) {
      const state = this.stateOf(device, outcome.resource.name);
      if (outcome.ok) {
        state.failures = 0;
        state.succeeded = true;
        state.down = outcome.result.down?.[device];
      } else {
        state.failures = outcome.failures;
        state.lastError = describe(outcome.error);
      }
      const now = this.availabilityOf(device);
      if (now === undefined || this.published.get(device) === now.available) continue;
      this.published.set(device, now.available);
      out.push({ kind: "availability", device, at, available: now.available, reason: now.reason });
    }
    return out;
  }

  private stateOf(device: DeviceId, resource: string): ResourceHealth {
    let resources = this.byDevice.get(device);
    if (!resources) {
      resources = new Map();
      this.byDevice.set(device, resources);
    }
    let state = resources.get(resource);
    if (!state) {
      state = { failures: 0, lastError: "", down: undefined, succeeded: false };
      resources.set(resource, state);
    }
    return state;
  }

  /** Undefined while nothing is known yet (no success and not enough failures). */
  private availabilityOf(device: DeviceId): Verdict | undefined {
    const resources = this.byDevice.get(device);
    if (!resources) return undefined;
    let anySuccess = false;
    for (const [name, state] of resources) {
      if (state.failures >= this.threshold) {
        return { available: false, reason: `${name} failed ${state.failures} times in a row: ${state.lastError}` };
      }
      if (state.down !== undefined) return { available: false, reason: state.down };
      anySuccess ||= state.succeeded;
    }
    return anySuccess ? { available: true, reason: "polls succeed" } : undefined;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
