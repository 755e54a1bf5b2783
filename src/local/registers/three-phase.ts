import { put, type Registers, type State, scaled, statusName, sum } from "./bank.js";

/**
 * A three-phase inverter's input registers IR 1000-1413 (their powers and energies are 32-bit,
 * high word first, in 0.1 units). The grid's power is the meter's export less its import.
 */
export function decodeThreePhase(ir: Registers): State {
  const pv1 = scaled(ir.u32(1017), 0.1);
  const pv2 = scaled(ir.u32(1019), 0.1);
  const exported = ir.u32(1081);
  const imported = ir.u32(1079);
  const discharge = ir.u32(1136);
  const charge = ir.u32(1138);
  const energy = (register: number): number | undefined => scaled(ir.u32(register), 0.1);
  return put(
    {},
    {
      status: statusName(ir.u16(1076)),
      solar_power: pv1 === undefined || pv2 === undefined ? undefined : Math.round(pv1 + pv2),
      solar_array_1_power: pv1,
      solar_array_2_power: pv2,
      solar_array_1_voltage: scaled(ir.u16(1001), 0.1),
      solar_array_2_voltage: scaled(ir.u16(1002), 0.1),
      solar_array_1_current: scaled(ir.u16(1009), 0.1),
      solar_array_2_current: scaled(ir.u16(1010), 0.1),
      grid_voltage: scaled(ir.u16(1061), 0.1),
      grid_current: scaled(ir.u16(1064), 0.1),
      grid_frequency: scaled(ir.u16(1067), 0.01),
      grid_power: exported === undefined || imported === undefined ? undefined : scaled(exported - imported, 0.1),
      inverter_power: scaled(ir.s32(1069), 0.1),
      consumption_power: scaled(ir.u32(1089), 0.1),
      battery_soc: ir.u16(1132),
      battery_power: discharge === undefined || charge === undefined ? undefined : scaled(discharge - charge, 0.1),
      inverter_temperature: scaled(ir.s16(1128), 0.1),
      eps_power: scaled(sum(ir.u32(1187), ir.u32(1189), ir.u32(1191)), 0.1),
      today_solar_energy: energy(1412),
      total_solar_energy: energy(1374),
      today_ac_charge_energy: energy(1376),
      total_ac_charge_energy: energy(1378),
      today_grid_import_energy: energy(1380),
      total_grid_import_energy: energy(1382),
      today_grid_export_energy: energy(1384),
      total_grid_export_energy: energy(1386),
      today_battery_discharge_energy: energy(1388),
      total_battery_discharge_energy: energy(1390),
      today_battery_charge_energy: energy(1392),
      total_battery_charge_energy: energy(1394),
      today_consumption_energy: energy(1396),
      total_consumption_energy: energy(1398),
    },
  );
}
