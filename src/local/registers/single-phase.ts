import { PV_INPUT_POWER, TODAY_PV_INPUT_ENERGY } from "../../vocabulary/index.js";
import { put, type Registers, type State, scaled, statusName, sum } from "./bank.js";
import { calibrationOf } from "./calibration.js";
import { balancedLoadToday } from "./load-balance.js";
import type { Model } from "./model.js";

/**
 * A single-phase inverter's input registers (hybrid Gen1-3, HV hybrid Gen3, AC-coupled,
 * All-in-One) at 0x11 (and its facade 0x31) into the daemon's state keys. Signs: IR 30 is the grid
 * clamp, positive exporting; IR 52 the battery, positive discharging: the daemon's own. Today's
 * home consumption is in no register (the cloud computes it): it is derived from today's
 * counters (./load-balance.ts).
 */
export function decodeSinglePhase(ir: Registers, model: Model): State {
  const pv1 = ir.u16(18);
  const pv2 = ir.u16(20);
  const state = put(
    {},
    {
      status: statusName(ir.u16(0)),
      calibration: calibrationOf(ir.holding),
      grid_power: ir.s16(30),
      grid_voltage: scaled(ir.u16(5), 0.1),
      grid_current: scaled(ir.u16(10), 0.1),
      grid_frequency: scaled(ir.u16(13), 0.01),
      battery_soc: ir.u16(59),
      battery_power: ir.s16(52),
      battery_temperature: scaled(ir.s16(56), 0.1),
      inverter_power: ir.s16(24),
      inverter_temperature: scaled(ir.s16(41), 0.1),
      inverter_output_voltage: scaled(ir.u16(53), 0.1),
      inverter_output_frequency: scaled(ir.u16(54), 0.01),
      eps_power: ir.u16(31),
      consumption_power: ir.u16(42),
      today_grid_import_energy: scaled(ir.u16(26), 0.1),
      today_grid_export_energy: scaled(ir.u16(25), 0.1),
      today_ac_charge_energy: scaled(ir.u16(35), 0.1),
      total_grid_import_energy: scaled(ir.u32(32), 0.1),
      total_grid_export_energy: scaled(ir.u32(21), 0.1),
    },
  );
  if (model === "AC-coupled") {
    // An AC-coupled unit has no PV input, and its PV registers read 0 (both captured units, while
    // their site's generation meter read 583 W): not the site's solar, which is on another inverter, so no
    // `solar_power` or `today_solar_energy`. GivTCP publishes them as its PV_Power and
    // PV_Energy_Today_kWh (IR 18 + 20, IR 17 + 19): kept apart for its names (naming: givtcp).
    put(state, {
      [PV_INPUT_POWER]: sum(pv1, pv2),
      [TODAY_PV_INPUT_ENERGY]: scaled(sum(ir.u16(17), ir.u16(19)), 0.1),
    });
  } else {
    put(state, {
      solar_power: sum(pv1, pv2),
      solar_array_1_power: pv1,
      solar_array_2_power: pv2,
      solar_array_1_voltage: scaled(ir.u16(1), 0.1),
      solar_array_2_voltage: scaled(ir.u16(2), 0.1),
      solar_array_1_current: scaled(ir.u16(8), 0.1),
      solar_array_2_current: scaled(ir.u16(9), 0.1),
    });
    // IR 44-46 are PV generation today and in total (the captured hybrids' figures), except on
    // the All-in-One, where they carry the battery's AC output: there the arrays' own counters
    // (IR 17 + IR 19, IR 11-12) are the PV's. Nor is IR 44 today's PV on the HV hybrid Gen3: its
    // capture reads 12.1 kWh there, exactly its arrays' 21.1 less the 9.0 that charged the battery.
    const aio = model === "All-in-One";
    const arraysToday = aio || model === "HV Hybrid Gen3";
    put(state, {
      today_solar_energy: scaled(arraysToday ? sum(ir.u16(17), ir.u16(19)) : ir.u16(44), 0.1),
      total_solar_energy: scaled(aio ? ir.u32(11) : ir.u32(45), 0.1),
    });
  }
  // The Gen1's battery counters are IR 180-183, as the public map names them for it (the captured
  // Gen2 and HV Gen3 read zero there); the other models keep their daily ones at IR 36/37.
  if (model === "Hybrid Gen1") {
    put(state, {
      total_battery_discharge_energy: scaled(ir.u16(180), 0.1),
      total_battery_charge_energy: scaled(ir.u16(181), 0.1),
      today_battery_discharge_energy: scaled(ir.u16(182), 0.1),
      today_battery_charge_energy: scaled(ir.u16(183), 0.1),
    });
  } else {
    put(state, {
      today_battery_charge_energy: scaled(ir.u16(36), 0.1),
      today_battery_discharge_energy: scaled(ir.u16(37), 0.1),
    });
  }
  put(state, { today_consumption_energy: balancedLoadToday(state) });
  return state;
}
