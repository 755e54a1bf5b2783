import { put, type Registers, type State, scaled } from "./bank.js";

/** LV battery packs answer at 0x32-0x37 with one bank, IR 60-119. */
export const LV_BATTERY_ADDRESSES = [0x32, 0x33, 0x34, 0x35, 0x36, 0x37] as const;
/** An HV stack: BMU modules at 0x50-0x5F, the BCU at 0x70-0x7F, the BAMS at 0x90 and 0xA0. */
export const isBmu = (address: number): boolean => address >= 0x50 && address <= 0x5f;
export const isBcu = (address: number): boolean => address >= 0x70 && address <= 0x7f;
export const isBams = (address: number): boolean => address === 0x90 || address === 0xa0;
export const isMeter = (address: number): boolean => address >= 0x01 && address <= 0x08;

/** A pack's serial, IR 110-114; a slot with no pack answers zeros and has none. */
export function lvBatterySerial(ir: Registers): string | undefined {
  const serial = ir.text(110, 5);
  return serial ? serial : undefined;
}

/**
 * An LV pack under the cloud's module keys (capacities in Ah as the cloud lists them), with its
 * charge level, voltage and temperature.
 */
export function decodeLvBattery(ir: Registers): State {
  const temperatures = [76, 77, 78, 79].map((register) => ir.s16(register));
  const known = temperatures.filter((t): t is number => t !== undefined);
  return put(
    {},
    {
      soc: ir.u16(100),
      voltage: scaled(ir.u32(82), 0.001),
      capacity: scaled(ir.u32(84), 0.01),
      design_capacity: scaled(ir.u32(86), 0.01),
      remaining_capacity: scaled(ir.u32(88), 0.01),
      cycle_count: ir.u16(96),
      temperature: known.length === 4 ? scaled(known.reduce((a, b) => a + b, 0) / 4, 0.1) : undefined,
    },
  );
}

/** An HV stack's BCU, IR 60-179: the stack's voltage, current, health, capacity and serial (IR 138-142). */
export function decodeBcu(ir: Registers): State {
  const soc = ir.u16(80);
  return put(
    {},
    {
      modules: ir.u16(64),
      voltage: scaled(ir.u16(73), 0.1),
      current: scaled(ir.s16(76), 0.1),
      soc: soc === undefined ? undefined : soc >> 8,
      state_of_health: ir.u16(81),
      design_capacity: scaled(ir.u16(98), 0.1),
      remaining_capacity: scaled(ir.u16(99), 0.1),
      cycle_count: scaled(ir.u16(100), 0.1),
      total_battery_charge_energy: scaled(ir.u32(82), 0.1),
      total_battery_discharge_energy: scaled(ir.u32(84), 0.1),
    },
  );
}

export function bcuSerial(ir: Registers): string | undefined {
  return ir.text(138, 5) || undefined;
}

/** An HV module (BMU): 24 cell voltages from IR 60, temperatures from IR 90, serial IR 114-118. */
export function decodeBmu(ir: Registers): State {
  const cells = Array.from({ length: 24 }, (_, index) => ir.u16(60 + index)).filter(
    (mv): mv is number => mv !== undefined && mv > 0,
  );
  return put(
    {},
    {
      voltage:
        cells.length > 0
          ? scaled(
              cells.reduce((a, b) => a + b, 0),
              0.001,
            )
          : undefined,
      cell_voltage_min: cells.length > 0 ? scaled(Math.min(...cells), 0.001) : undefined,
      cell_voltage_max: cells.length > 0 ? scaled(Math.max(...cells), 0.001) : undefined,
    },
  );
}

export function bmuSerial(ir: Registers): string | undefined {
  return ir.text(114, 5) || undefined;
}

/** A meter at 0x01-0x08, IR 60-88: phase 1, totals, frequency and lifetime energies. */
export function decodeMeter(ir: Registers): State {
  return put(
    {},
    {
      voltage: scaled(ir.u16(60), 0.1),
      current: scaled(ir.u16(67), 0.01),
      power: ir.s16(71),
      frequency: scaled(ir.u16(84), 0.01),
      total_import_energy: scaled(ir.u16(85), 0.1),
      total_export_energy: scaled(ir.u16(87), 0.1),
    },
  );
}
