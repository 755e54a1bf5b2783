import type { Fetched } from "../../bus/event-bus.js";
import type { GridCounters } from "../../rules-runtime/index.js";
import type { LiveObservation } from "../engine/live-state.js";

/** The inverter's battery, solar and grid values, the charger's status or its import register, in a fetched answer. */
export function observedIn(fetched: Fetched): LiveObservation | undefined {
  if (fetched.kind === "ev.status") {
    const status = fetched.values.status;
    return typeof status === "string" ? { kind: "charger", uuid: fetched.uuid, status } : undefined;
  }
  if (fetched.kind === "ev.meter") {
    const importKwh = fetched.values?.energy;
    if (typeof importKwh !== "number") return undefined;
    // When the charger measured it, but never after it was fetched.
    const at = fetched.measuredAt === undefined ? fetched.at : Math.min(fetched.measuredAt, fetched.at);
    return { kind: "charger-meter", uuid: fetched.uuid, at, importKwh };
  }
  if (fetched.kind !== "inverter.live") return undefined;
  const soc = fetched.values.battery_soc;
  const pv = fetched.values.solar_power;
  const grid = fetched.values.grid_power;
  const calibrating = fetched.values.calibrating;
  return {
    kind: "inverter",
    serial: fetched.serial,
    ...(typeof soc === "number" ? { batterySoc: soc } : {}),
    ...(typeof pv === "number" ? { pvPower: pv } : {}),
    ...(typeof grid === "number" ? { gridPower: grid } : {}),
    ...(calibrating === "ON" || calibrating === "OFF" ? { calibrating: calibrating === "ON" } : {}),
  };
}

/**
 * The newest values per device, each observation over the ones before it (a value left out
 * stays known): what a rules engine started later is given first.
 */
export class LatestObserved {
  private readonly latest = new Map<string, LiveObservation>();

  add(seen: LiveObservation): void {
    const key = seen.kind === "inverter" ? `inverter:${seen.serial}` : `${seen.kind}:${seen.uuid}`;
    const before = this.latest.get(key);
    this.latest.set(key, before?.kind === "inverter" && seen.kind === "inverter" ? { ...before, ...seen } : seen);
  }

  all(): LiveObservation[] {
    return [...this.latest.values()];
  }
}

/** An inverter's daily grid counters in a fetched answer (its newest data point), for today's cost. */
export function countersIn(
  fetched: Fetched,
): { readonly serial: string; readonly at: number; readonly grid: GridCounters } | undefined {
  if (fetched.kind !== "inverter.points" || !fetched.counters) return undefined;
  const { today_grid_import_energy: imported, today_grid_export_energy: exported } = fetched.counters;
  if (typeof imported !== "number") return undefined;
  return {
    serial: fetched.serial,
    at: fetched.at,
    grid: { import: imported, export: typeof exported === "number" ? exported : 0 },
  };
}
