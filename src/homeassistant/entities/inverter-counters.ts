import { energy, reported } from "./sensors.js";
import type { EntityDef } from "./types.js";

interface Counter {
  readonly key: string;
  readonly name: string;
  readonly icon?: string;
}

const COUNTERS: readonly Counter[] = [
  { key: "solar_energy", name: "solar energy", icon: "mdi:solar-power" },
  {
    key: "grid_import_energy",
    name: "grid import",
    icon: "mdi:transmission-tower-import",
  },
  {
    key: "grid_export_energy",
    name: "grid export",
    icon: "mdi:transmission-tower-export",
  },
  {
    key: "battery_charge_energy",
    name: "battery charge",
    icon: "mdi:battery-arrow-up",
  },
  {
    key: "battery_discharge_energy",
    name: "battery discharge",
    icon: "mdi:battery-arrow-down",
  },
  { key: "consumption_energy", name: "home consumption", icon: "mdi:home-lightning-bolt" },
  { key: "ac_charge_energy", name: "AC charge", icon: "mdi:battery-charging" },
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
