import { PV_INPUT_POWER, TODAY_PV_INPUT_ENERGY } from "../../vocabulary/index.js";
import type { Component } from "../entities/index.js";

/**
 * How a GivTCP-named entity gets its value and takes its commands:
 * - `alias`: the first of `keys` the device has an entity for; its state key and its command
 *   topic, the value unchanged (a time shown as GivTCP's "HH:MM:SS" select).
 * - `labels`: as alias, for a select whose own option labels GivTCP words differently; the
 *   state carries GivTCP's word under `givtcp_<name>` (./state.ts).
 * - `pv`: the site's solar (`own`) where the device has it; else, where the device reads it, an
 *   AC-coupled unit's own PV input (`input`: 0, it has none), which GivTCP publishes as its PV
 *   figures (src/vocabulary/inverter-keys.ts).
 * - `soc-kwh`, `mode`, `clock`: values worked out into the state as `givtcp_<name>` (./state.ts);
 *   the mode's commands go to the `givtcp_mode` command (./mode.ts). The clock is the inverter's
 *   over the LAN (its drift), the cloud's stamp of its latest reading over the cloud.
 */
export type GivTcpSource =
  | { readonly kind: "alias"; readonly keys: readonly string[] }
  | {
      readonly kind: "labels";
      readonly keys: readonly string[];
      /** GivTCP's option -> the daemon's option, in GivTCP's order. */
      readonly labels: Readonly<Record<string, string>>;
    }
  | { readonly kind: "pv"; readonly own: string; readonly input: string }
  | { readonly kind: "soc-kwh" }
  | { readonly kind: "mode" }
  | { readonly kind: "clock" };

/** One entity as GivTCP names it: `<component>.givtcp_<serial>_<name>`. */
export interface GivTcpName {
  readonly name: string;
  readonly component: Component;
  /** The friendly name GivTCP shows. */
  readonly title: string;
  readonly source: GivTcpSource;
  readonly unit?: string;
  readonly device_class?: string;
  readonly state_class?: "measurement" | "total_increasing";
}

/** Why a sensor GivTCP names shows unavailable: its attribute `not_given` (docs/from-givtcp.md lists them). */
export const NOT_GIVEN = "no value over this path for this device: see docs/from-givtcp.md#what-a-path-cannot-give";

/** GivTCP's battery modes (its Control.Mode values), the ones that can be set. */
export const GIVTCP_MODES = ["Eco", "Eco (Paused)", "Timed Demand", "Timed Export"] as const;
export type GivTcpMode = (typeof GIVTCP_MODES)[number];

/** The command key the mode select publishes to: `<base>/<device>/set/givtcp_mode`. */
export const GIVTCP_MODE_COMMAND = "givtcp_mode";

/** GivTCP's pause modes and the daemon's labels for the same pause-battery values. */
export const PAUSE_LABELS: Readonly<Record<string, string>> = {
  Disabled: "Not Paused",
  PauseCharge: "Pause Charge",
  PauseDischarge: "Pause Discharge",
  PauseBoth: "Pause Charge and Discharge",
};

const todayEnergy = (name: string, title: string, source: GivTcpSource): GivTcpName => ({
  name,
  component: "sensor",
  title,
  source,
  unit: "kWh",
  device_class: "energy",
  state_class: "total_increasing",
});

const power = (name: string, title: string, source: GivTcpSource): GivTcpName => ({
  name,
  component: "sensor",
  title,
  source,
  unit: "W",
  device_class: "power",
  state_class: "measurement",
});

const alias = (key: string): GivTcpSource => ({ kind: "alias", keys: [key] });

const slotTime = (name: string, title: string, key: string): GivTcpName => ({
  name,
  component: "select",
  title,
  source: { kind: "alias", keys: [key] },
});

const percent = (name: string, title: string, keys: readonly string[]): GivTcpName => ({
  name,
  component: "number",
  title,
  source: { kind: "alias", keys },
  unit: "%",
});

const watts = (name: string, title: string, keys: readonly string[]): GivTcpName => ({
  name,
  component: "number",
  title,
  source: { kind: "alias", keys },
  unit: "W",
  device_class: "power",
});

/**
 * Every entity Predbat's GivTCP template (templates/givenergy_givtcp.yaml) names, as GivTCP
 * publishes it. The discharge slot is the timed-export one: Predbat sets it and then the mode
 * "Timed Export", as GivTCP's one discharge slot serves both.
 */
export const GIVTCP_NAMES: readonly GivTcpName[] = [
  todayEnergy("load_energy_today_kwh", "Load Energy Today kWh", alias("today_consumption_energy")),
  todayEnergy("import_energy_today_kwh", "Import Energy Today kWh", alias("today_grid_import_energy")),
  todayEnergy("export_energy_today_kwh", "Export Energy Today kWh", alias("today_grid_export_energy")),
  todayEnergy("pv_energy_today_kwh", "PV Energy Today kWh", {
    kind: "pv",
    own: "today_solar_energy",
    input: TODAY_PV_INPUT_ENERGY,
  }),
  watts("battery_charge_rate", "Battery Charge Rate", [
    "battery_operating_range_max_charge_watts",
    "setting_battery_charge_power",
  ]),
  watts("battery_discharge_rate", "Battery Discharge Rate", [
    "battery_operating_range_max_discharge_watts",
    "setting_battery_discharge_power",
  ]),
  power("battery_power", "Battery Power", alias("battery_power")),
  power("pv_power", "PV Power", { kind: "pv", own: "solar_power", input: PV_INPUT_POWER }),
  power("load_power", "Load Power", alias("consumption_power")),
  {
    name: "soc_kwh",
    component: "sensor",
    title: "SOC kWh",
    source: { kind: "soc-kwh" },
    unit: "kWh",
    device_class: "energy_storage",
    state_class: "measurement",
  },
  {
    name: "battery_capacity_kwh",
    component: "sensor",
    title: "Battery Capacity kWh",
    source: { kind: "alias", keys: ["battery_capacity"] },
    unit: "kWh",
    device_class: "energy_storage",
    state_class: "measurement",
  },
  percent("battery_power_reserve", "Battery Power Reserve", [
    "battery_operating_range_reserve_percent",
    "setting_battery_reserve_percent_limit",
  ]),
  { name: "mode", component: "select", title: "Mode", source: { kind: "mode" } },
  {
    name: "invertor_time",
    component: "sensor",
    title: "Invertor Time",
    source: { kind: "clock" },
    device_class: "timestamp",
  },
  slotTime("charge_start_time_slot_1", "Charge Start Time Slot 1", "timed_charge_slot_1_start_time"),
  slotTime("charge_end_time_slot_1", "Charge End Time Slot 1", "timed_charge_slot_1_end_time"),
  percent("target_soc", "Target SOC", ["timed_charge_slot_1_percent_limit", "setting_ac_charge_upper_percent_limit"]),
  {
    name: "enable_charge_schedule",
    component: "switch",
    title: "Enable Charge Schedule",
    source: { kind: "alias", keys: ["timed_charge"] },
  },
  slotTime("discharge_start_time_slot_1", "Discharge Start Time Slot 1", "timed_export_slot_1_start_time"),
  slotTime("discharge_end_time_slot_1", "Discharge End Time Slot 1", "timed_export_slot_1_end_time"),
  {
    name: "battery_pause_mode",
    component: "select",
    title: "Battery Pause Mode",
    source: { kind: "labels", keys: ["pause_battery_mode"], labels: PAUSE_LABELS },
  },
  slotTime("battery_pause_start_time_slot", "Battery Pause Start Time Slot", "pause_battery_start_time"),
  slotTime("battery_pause_end_time_slot", "Battery Pause End Time Slot", "pause_battery_end_time"),
  // HR 272 where the model has it; else the target the daemon holds (src/control/discharge-target.ts).
  percent("discharge_target_soc_1", "Discharge Target SOC 1", [
    "timed_export_slot_1_percent_limit",
    "timed_export_discharge_target_percent",
  ]),
];
