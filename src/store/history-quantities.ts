/**
 * What the numbers in history data mean: names for flow types and charger measurands, units,
 * and which values are counters. Export names its columns from here; downsampling merges by it.
 */

/** Energy flow type ids (api-reference: Energy flow record). */
export const FLOW_TYPES: Readonly<Record<string, string>> = {
  "0": "pv_to_home",
  "1": "pv_to_battery",
  "2": "pv_to_grid",
  "3": "grid_to_home",
  "4": "grid_to_battery",
  "5": "battery_to_home",
  "6": "battery_to_grid",
};

/** Charger meter measurands by id (api-reference: Charger meter record). */
export const MEASURANDS: readonly string[] = [
  "Current.Export",
  "Current.Import",
  "Current.Offered",
  "Energy.Active.Export.Register",
  "Energy.Active.Import.Register",
  "Energy.Reactive.Export.Register",
  "Energy.Reactive.Import.Register",
  "Energy.Active.Export.Interval",
  "Energy.Active.Import.Interval",
  "Energy.Reactive.Export.Interval",
  "Energy.Reactive.Import.Interval",
  "Frequency",
  "Power.Active.Export",
  "Power.Active.Import",
  "Power.Factor",
  "Power.Offered",
  "Power.Reactive.Export",
  "Power.Reactive.Import",
  "RPM",
  "SoC",
  "Temperature",
  "Voltage",
];

/** Charger meter unit codes. */
export const METER_UNITS: readonly string[] = [
  "Wh",
  "kWh",
  "varh",
  "kvarh",
  "W",
  "kW",
  "VA",
  "kVA",
  "var",
  "kvar",
  "A",
  "V",
  "°C",
  "°F",
  "K",
  "%",
];

/** The unit a measurand has when the record names none (the charger's own default units). */
const MEASURAND_UNITS: Readonly<Record<string, string>> = {
  Current: "A",
  Energy: "kWh",
  Frequency: "Hz",
  Power: "W",
  SoC: "%",
  Temperature: "°C",
  Voltage: "V",
};

/** The measurand a charger meter data key names: its id ("4") or its name. */
export function measurandName(key: string): string | undefined {
  if (/^\d+$/.test(key)) return MEASURANDS[Number(key)];
  return MEASURANDS.includes(key) ? key : undefined;
}

export function measurandUnit(name: string, code?: number | null): string | undefined {
  if (typeof code === "number") return METER_UNITS[code];
  if (name === "Power.Factor" || name === "RPM") return undefined;
  if (name.startsWith("Energy.Reactive")) return "kvarh";
  if (name.startsWith("Power.Reactive")) return "var";
  return MEASURAND_UNITS[name.split(".")[0] ?? ""];
}

/** The unit of an inverter, EMS, smart device or battery value, from where it sits in the data. */
export function unitOfPath(kind: string, path: readonly string[]): string | undefined {
  const leaf = path[path.length - 1] ?? "";
  if (kind.startsWith("flow.")) return "kWh";
  if (path[0] === "today" || path[0] === "total") return "kWh";
  if (leaf === "meter_start" || leaf === "meter_stop") return "kWh";
  if (leaf === "battery_wh_remaining") return "Wh";
  if (leaf === "power" || leaf.endsWith("_power") || leaf === "consumption" || leaf === "total_generation") return "W";
  if (leaf.endsWith("voltage")) return "V";
  if (leaf === "current") return "A";
  if (leaf.endsWith("frequency")) return "Hz";
  if (leaf === "temperature") return "°C";
  if (leaf === "percent" || leaf === "soc") return "%";
  if (path[0] === "capacity") return "Ah";
  return undefined;
}

/**
 * Counters keep their last value when points are merged; interval energies add up; every other
 * number is averaged.
 */
export type MergeRule = "last" | "sum" | "mean";

export function mergeRuleOf(kind: string, path: readonly string[]): MergeRule {
  if (path[0] === "today" || path[0] === "total") return "last";
  if (kind === "ev.meter") {
    const name = measurandName(path[0] ?? "") ?? "";
    if (name.endsWith(".Register")) return "last";
    if (name.endsWith(".Interval")) return "sum";
  }
  return "mean";
}
