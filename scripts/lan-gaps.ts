import type { Model } from "../src/local/registers/model.js";

/** The entities of one kind of device that the cloud carries and its dongle's registers do not, and why. */
export interface LanGap {
  /** The kind as docs/entities.md names it. */
  readonly kind: string;
  /** The models `detectModel` gives that kind on the LAN. */
  readonly models: readonly Model[];
  /** Their state keys (each an entity of the same key). */
  readonly keys: readonly string[];
  readonly why: string;
}

/** Today's consumption is balanced from today's counters where all of them are registers (src/local/registers/load-balance.ts); the lifetime one is not. */
const CONSUMPTION_AND_AC_CHARGE = ["total_consumption_energy", "total_ac_charge_energy"];
const BATTERY_TOTALS = ["total_battery_charge_energy", "total_battery_discharge_energy"];

/**
 * By the kind of device a dongle's device chain holds: docs/entities.md's table of what only the cloud
 * carries. test/simulator/local/agreement.test.ts holds the simulator's kinds to it, against the
 * cloud at the same instant, and test/docs/lan-gaps.test.ts the captured kinds, decoded.
 */
export const LAN_GAPS: readonly LanGap[] = [
  {
    kind: "Hybrid Gen1",
    models: ["Hybrid Gen1"],
    keys: CONSUMPTION_AND_AC_CHARGE,
    why: "no register holds them: the cloud computes the home's lifetime consumption (today's is balanced from today's counters), and the single-phase map has today's AC charge (IR 35) but no lifetime one",
  },
  {
    kind: "Hybrid Gen2 and Gen3",
    models: ["Hybrid Gen2", "Hybrid Gen3"],
    keys: [...CONSUMPTION_AND_AC_CHARGE, ...BATTERY_TOTALS],
    why: "as on the Gen1; and the battery's lifetime counters are the Gen1's IR 180/181 only (the captured Gen2 reads zero there), the public map naming no other register seen to hold them",
  },
  {
    kind: "HV hybrid Gen3",
    models: ["HV Hybrid Gen3"],
    keys: [...CONSUMPTION_AND_AC_CHARGE, ...BATTERY_TOTALS],
    why: "as on the Gen2 (the captured one reads zero at IR 180-183)",
  },
  {
    kind: "AC-coupled",
    models: ["AC-coupled"],
    keys: [
      "solar_power",
      "today_solar_energy",
      "total_solar_energy",
      "today_consumption_energy",
      ...CONSUMPTION_AND_AC_CHARGE,
      ...BATTERY_TOTALS,
    ],
    why: "it has no PV inputs: the cloud shows the PV a generation meter measures, and without it today's consumption cannot be balanced from its counters; the rest as on the Gen2",
  },
  {
    kind: "All-in-One",
    models: ["All-in-One"],
    keys: [...CONSUMPTION_AND_AC_CHARGE, ...BATTERY_TOTALS],
    why: "as on the Gen2: the public map gives the All-in-One today's battery counters (IR 36/37) and no lifetime ones",
  },
  {
    kind: "Three-phase hybrid",
    models: ["Three-phase hybrid"],
    keys: ["battery_temperature", "inverter_output_voltage", "inverter_output_frequency"],
    why: "the public three-phase map (IR 1000-1413) has no battery temperature or output frequency register, and its output voltage is per phase (IR 1094-1096), not one figure",
  },
  {
    kind: "Gateway",
    models: ["Gateway"],
    keys: ["status", "grid_power", "grid_frequency", "inverter_power"],
    why: "not in its rollup (IR 1600-1859): the public map names the grid's voltage and current there, but no grid power or frequency, status or inverter power",
  },
  {
    kind: "EMS",
    models: ["EMS"],
    keys: ["car_power", "error_code", "warning_code"],
    why: "not in its rollup (IR 2040-2099); the public map has the car charger's mode and boost settings, not its power",
  },
];

/** The keys only the cloud carries for a model, or none listed. */
export function cloudOnlyKeys(model: string): readonly string[] {
  return LAN_GAPS.find((gap) => (gap.models as readonly string[]).includes(model))?.keys ?? [];
}
