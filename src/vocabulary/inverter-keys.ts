/**
 * An inverter's live values, each path's reading gives every one (null where it has none): W, V,
 * A, Hz, %, °C; grid positive exporting, battery positive discharging. `status` is text
 * ("Normal"); solar arrays add `solar_array_N_power`, `_voltage` and `_current` for each array.
 */
export const INVERTER_LIVE_KEYS = [
  "status",
  "solar_power",
  "grid_power",
  "grid_voltage",
  "grid_current",
  "grid_frequency",
  "battery_soc",
  "battery_power",
  "battery_temperature",
  "inverter_power",
  "inverter_temperature",
  "inverter_output_voltage",
  "inverter_output_frequency",
  "eps_power",
  "consumption_power",
] as const;

export const SOLAR_ARRAY_POWER = /^solar_array_(\d+)_power$/;

/** What an inverter counts, each `today_<counter>` (since its local midnight) and `total_<counter>`, in kWh. */
export const INVERTER_COUNTERS = [
  "solar_energy",
  "grid_import_energy",
  "grid_export_energy",
  "battery_charge_energy",
  "battery_discharge_energy",
  "consumption_energy",
  "ac_charge_energy",
] as const;

export const COUNTER_PERIODS = ["today", "total"] as const;

/** Every counter key: `today_solar_energy`, ..., `total_ac_charge_energy`. */
export const INVERTER_COUNTER_KEYS: readonly string[] = COUNTER_PERIODS.flatMap((period) =>
  INVERTER_COUNTERS.map((counter) => `${period}_${counter}`),
);

/**
 * An AC-coupled unit's own PV input, W and kWh today: it has none, and its PV registers read 0
 * (the LAN captures). Not the site's solar (`solar_power`, `today_solar_energy`), which is on
 * another inverter: read over the LAN only for GivTCP's PV_Power and PV_Energy_Today_kWh, which
 * GivTCP publishes from those registers (homeassistant.naming: givtcp).
 */
export const PV_INPUT_POWER = "pv_input_power";
export const TODAY_PV_INPUT_ENERGY = "today_pv_input_energy";
