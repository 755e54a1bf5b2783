import type { EnergyTotals, MeterData } from "../../cloud/index.js";
import { energy, reported } from "./sensors.js";
import type { EntityDef, StateValues } from "./types.js";
import { num } from "./values.js";

interface Counter {
  readonly key: string;
  readonly name: string;
  readonly icon?: string;
  readonly read: (totals: EnergyTotals) => unknown;
}

const COUNTERS: readonly Counter[] = [
  { key: "solar_energy", name: "solar energy", icon: "mdi:solar-power", read: (t) => t.solar },
  {
    key: "grid_import_energy",
    name: "grid import",
    icon: "mdi:transmission-tower-import",
    read: (t) => t.grid?.import,
  },
  {
    key: "grid_export_energy",
    name: "grid export",
    icon: "mdi:transmission-tower-export",
    read: (t) => t.grid?.export,
  },
  {
    key: "battery_charge_energy",
    name: "battery charge",
    icon: "mdi:battery-arrow-up",
    read: (t) => t.battery?.charge,
  },
  {
    key: "battery_discharge_energy",
    name: "battery discharge",
    icon: "mdi:battery-arrow-down",
    read: (t) => t.battery?.discharge,
  },
  { key: "consumption_energy", name: "home consumption", icon: "mdi:home-lightning-bolt", read: (t) => t.consumption },
  { key: "ac_charge_energy", name: "AC charge", icon: "mdi:battery-charging", read: (t) => t.ac_charge },
];

const PERIODS = [
  { prefix: "today", label: "Today's" },
  { prefix: "total", label: "Total" },
] as const;

export function counterEntities(): EntityDef[] {
  return PERIODS.flatMap((period) =>
    COUNTERS.map(
      (counter): EntityDef => ({
        ...reported(
          energy(
            `${period.prefix}_${counter.key}`,
            `${period.label} ${counter.name}`,
            counter.icon ? { icon: counter.icon } : {},
          ),
        ),
        counter: period.prefix === "today" ? "daily" : "lifetime",
      }),
    ),
  );
}

/** Counters in kWh, as the service sends them. */
export function counterPatch(data: MeterData): StateValues {
  const values: StateValues = {};
  for (const period of PERIODS) {
    const totals = data[period.prefix];
    for (const counter of COUNTERS)
      values[`${period.prefix}_${counter.key}`] = totals ? num(counter.read(totals)) : null;
  }
  return values;
}
