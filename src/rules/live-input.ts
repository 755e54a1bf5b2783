import type { DaemonEvents, DataReading } from "../bus.js";
import type { LiveObservation } from "./engine/live-state.js";

type Fetched = DaemonEvents["fetched"][number];

/** The inverter's battery, solar and grid values in a fetched answer; nothing from other resources. */
export function observedInFetched(fetched: Fetched): LiveObservation | undefined {
  if (fetched.kind !== "inverter.live") return undefined;
  const soc = fetched.data.battery?.percent;
  const pv = fetched.data.solar?.power;
  const grid = fetched.data.grid?.power;
  return {
    kind: "inverter",
    serial: fetched.serial,
    ...(typeof soc === "number" ? { batterySoc: soc } : {}),
    ...(typeof pv === "number" ? { pvPower: pv } : {}),
    ...(typeof grid === "number" ? { gridPower: grid } : {}),
  };
}

/** The charger's status in a reading (the fetched shape does not carry the charger's status). */
export function observedInReading(reading: DataReading): LiveObservation | undefined {
  if (reading.kind !== "ev.status" || !reading.data.status) return undefined;
  return { kind: "charger", uuid: reading.uuid, status: reading.data.status };
}

/**
 * The newest values per device, each observation over the ones before it (a value left out
 * stays known): what a rules engine started later is given first.
 */
export class LatestObserved {
  private readonly latest = new Map<string, LiveObservation>();

  add(seen: LiveObservation): void {
    const key = seen.kind === "inverter" ? `inverter:${seen.serial}` : `charger:${seen.uuid}`;
    const before = this.latest.get(key);
    this.latest.set(key, before?.kind === "inverter" && seen.kind === "inverter" ? { ...before, ...seen } : seen);
  }

  all(): LiveObservation[] {
    return [...this.latest.values()];
  }
}
