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

/** The first BMU; a stack's modules follow it one address each. */
export const FIRST_BMU = 0x50;
export const BMU_CELLS = 24;
/** The temperature sensors a module fills: 12 on the captures' All-in-One and three-phase modules. */
export const BMU_TEMPERATURE_SENSORS = 12;

/**
 * An HV module (BMU), IR 60-119: 24 cell voltages (mV) from IR 60, up to 24 temperatures (0.1 °C)
 * from IR 90, serial IR 114-118. The captures show 12 of the temperature registers filled on the
 * All-in-One and three-phase modules, 24 on the HV Gen3's: an empty one is no sensor, not 0 °C.
 * A module carries no charge level or capacity of its own; its stack's BCU does.
 */
export function decodeBmu(ir: Registers): State {
  const present = (values: (number | undefined)[]): number[] =>
    values.filter((value): value is number => value !== undefined && value > 0);
  const cells = present(Array.from({ length: BMU_CELLS }, (_, index) => ir.u16(60 + index)));
  // A word above 100 °C is no sensor's reading: the captures show serial text shifted into this range.
  const temperatures = present(Array.from({ length: BMU_CELLS }, (_, index) => ir.s16(90 + index))).filter(
    (raw) => raw <= 1000,
  );
  const some = (values: number[], pick: (values: number[]) => number, factor: number): number | undefined =>
    values.length > 0 ? scaled(pick(values), factor) : undefined;
  return put(
    {},
    {
      cell_count: cells.length > 0 ? cells.length : undefined,
      voltage: some(cells, (v) => v.reduce((a, b) => a + b, 0), 0.001),
      cell_voltage_min: some(cells, (v) => Math.min(...v), 0.001),
      cell_voltage_max: some(cells, (v) => Math.max(...v), 0.001),
      temperature_min: some(temperatures, (v) => Math.min(...v), 0.1),
      temperature_max: some(temperatures, (v) => Math.max(...v), 0.1),
    },
  );
}

/**
 * The BAMS summary at 0xA0, IR 60-64. No public map names these; the captures fix them: the
 * three-phase plant (6 modules) answers 1, 1, 6, 144, 72 and the All-in-One (4 modules) 0, 1, 4,
 * 96, 48: IR 61 the stacks (BCUs), IR 62 the modules, IR 63 their cells (24 each), IR 64 their
 * temperature sensors (12 each). IR 60 differs between the plants and is left undecoded.
 */
export function decodeBamsSummary(ir: Registers): State {
  return put({}, { stacks: ir.u16(61), modules: ir.u16(62), cell_count: ir.u16(63), temperature_sensors: ir.u16(64) });
}

/**
 * The BAMS cluster view at 0x90 (three-phase only in the captures), IR 78-80: the stack voltage
 * (0.1 V) and current (signed, 0.1 A), equal in every capture to the BCU's IR 73 and IR 76 read
 * in the same minute.
 */
export function decodeBamsCluster(ir: Registers): State {
  return put({}, { voltage: scaled(ir.u16(78), 0.1), current: scaled(ir.s16(80), 0.1) });
}

export const BAMS_SUMMARY = 0xa0;
export const BAMS_CLUSTER = 0x90;

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
