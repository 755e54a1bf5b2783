import type { Device } from "../telemetry/index.js";
import { type EntityDef, entitiesFor } from "./entities/index.js";

export const NO_KEYS: ReadonlySet<string> = new Set();
const keySets = new Map<string, ReadonlySet<string>>();

/** One set for every device that reported exactly these keys. */
export function internKeySet(keys: readonly string[]): ReadonlySet<string> {
  const signature = [...keys].sort().join("\n");
  let set = keySets.get(signature);
  if (!set) {
    set = new Set(keys);
    keySets.set(signature, set);
  }
  return set;
}

const countersByDevice = new WeakMap<Device, readonly EntityDef[]>();

/** The device's energy counters (which ones does not depend on what it reported). */
export function countersOf(device: Device): readonly EntityDef[] {
  let counters = countersByDevice.get(device);
  if (!counters) {
    counters = entitiesFor(device).filter((entity) => entity.counter !== undefined);
    countersByDevice.set(device, counters);
  }
  return counters;
}

/** EV modes the charger's change-mode data lists. */
export function evModesOf(data: unknown): readonly string[] | undefined {
  const mode = (data as { "change-mode"?: { available?: unknown } } | undefined)?.["change-mode"];
  return Array.isArray(mode?.available) ? mode.available.filter((m): m is string => typeof m === "string") : undefined;
}
