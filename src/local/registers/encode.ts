import { EMS_INVERTER_STATUS, EMS_METER_STATUS, EMS_METER_TYPE } from "../../vocabulary/index.js";
import { STATUS_NAMES, type State } from "./bank.js";
import { BMU_CELLS, BMU_TEMPERATURE_SENSORS } from "./battery.js";
import { BATTERY_CAPACITY_REGISTER } from "./battery-capacity.js";
import { GATEWAY_AIO_SLOTS } from "./gateway.js";
import type { Model } from "./model.js";
import { type RegisterFile, unscaled } from "./register-file.js";

/*
 * The inverse of the decoders next to this file (single-phase.ts, three-phase.ts, ems.ts,
 * gateway.ts, battery.ts): a state under the daemon's keys, units and signs written into the
 * registers those decoders read. The simulator's dongles serve what these write; the round trip
 * (encode, then decode) is tested for every map, so the two sides cannot drift apart.
 */

const num = (state: State, key: string): number | undefined => {
  const value = state[key];
  return typeof value === "number" ? value : undefined;
};
const text = (state: State, key: string): string | undefined => {
  const value = state[key];
  return typeof value === "string" ? value : undefined;
};
const positive = (value: number | undefined): number | undefined =>
  value === undefined ? undefined : Math.max(0, value);
const negative = (value: number | undefined): number | undefined =>
  value === undefined ? undefined : Math.max(0, -value);
const negated = (value: number | undefined): number | undefined => (value === undefined ? undefined : -value);

/** The code of a status name (any case), as IR 0 and IR 2040 hold it. */
export function statusCode(name: string | undefined): number | undefined {
  if (name === undefined) return undefined;
  const upper = name.toUpperCase();
  const found = Object.entries(STATUS_NAMES).find(([, known]) => known === upper);
  return found ? Number(found[0]) : undefined;
}

export interface Identity {
  /** HR 0, e.g. 0x2001 for a hybrid. */
  readonly deviceType: number;
  /** HR 21. */
  readonly armFirmware: number;
  /** HR 13-17, up to 10 characters. */
  readonly serial: string;
  /** HR 55, a single-phase inverter's battery in nominal Ah (none without a battery). */
  readonly batteryCapacityAh?: number;
}

/** The identity bank that `detectModel` and the controller's serial read. */
export function encodeIdentity(file: RegisterFile, identity: Identity): void {
  file.holdingSide
    .u16(0, identity.deviceType)
    .u16(21, identity.armFirmware)
    .text(13, 5, identity.serial)
    .u16(BATTERY_CAPACITY_REGISTER, identity.batteryCapacityAh);
}

/** The inverse of `decodeSinglePhase`. */
export function encodeSinglePhase(file: RegisterFile, state: State, model: Model): void {
  const n = (key: string): number | undefined => num(state, key);
  file
    .u16(0, statusCode(text(state, "status")))
    .s16(30, n("grid_power"))
    .u16(5, unscaled(n("grid_voltage"), 0.1))
    .u16(10, unscaled(n("grid_current"), 0.1))
    .u16(13, unscaled(n("grid_frequency"), 0.01))
    .u16(59, n("battery_soc"))
    .s16(52, n("battery_power"))
    .s16(56, unscaled(n("battery_temperature"), 0.1))
    .s16(24, n("inverter_power"))
    .s16(41, unscaled(n("inverter_temperature"), 0.1))
    .u16(53, unscaled(n("inverter_output_voltage"), 0.1))
    .u16(54, unscaled(n("inverter_output_frequency"), 0.01))
    .u16(31, n("eps_power"))
    .u16(42, n("consumption_power"))
    .u16(26, unscaled(n("today_grid_import_energy"), 0.1))
    .u16(25, unscaled(n("today_grid_export_energy"), 0.1))
    .u16(35, unscaled(n("today_ac_charge_energy"), 0.1))
    .u16(36, unscaled(n("today_battery_charge_energy"), 0.1))
    .u16(37, unscaled(n("today_battery_discharge_energy"), 0.1))
    .u32(32, unscaled(n("total_grid_import_energy"), 0.1))
    .u32(21, unscaled(n("total_grid_export_energy"), 0.1));
  if (model !== "AC-coupled") {
    file
      .u16(18, n("solar_array_1_power"))
      .u16(20, n("solar_array_2_power"))
      .u16(1, unscaled(n("solar_array_1_voltage"), 0.1))
      .u16(2, unscaled(n("solar_array_2_voltage"), 0.1))
      .u16(8, unscaled(n("solar_array_1_current"), 0.1))
      .u16(9, unscaled(n("solar_array_2_current"), 0.1));
    // The arrays' own counters: today's split as IR 17 (all of it) and IR 19 (none).
    if (model === "All-in-One" || model === "HV Hybrid Gen3")
      file
        .u16(17, unscaled(n("today_solar_energy"), 0.1))
        .u16(19, n("today_solar_energy") === undefined ? undefined : 0);
    else file.u16(44, unscaled(n("today_solar_energy"), 0.1));
    if (model === "All-in-One") file.u32(11, unscaled(n("total_solar_energy"), 0.1));
    else file.u32(45, unscaled(n("total_solar_energy"), 0.1));
  }
  // The captured Gen1 holds today's battery figures at IR 182/183 and IR 36/37 alike.
  if (model === "Hybrid Gen1") {
    file
      .u16(180, unscaled(n("total_battery_discharge_energy"), 0.1))
      .u16(181, unscaled(n("total_battery_charge_energy"), 0.1))
      .u16(182, unscaled(n("today_battery_discharge_energy"), 0.1))
      .u16(183, unscaled(n("today_battery_charge_energy"), 0.1));
  }
}

/** The inverse of `decodeThreePhase`: grid and battery power split into their two directions. */
export function encodeThreePhase(file: RegisterFile, state: State): void {
  const n = (key: string): number | undefined => num(state, key);
  const tenths = (key: string): number | undefined => unscaled(n(key), 0.1);
  const grid = n("grid_power");
  const battery = n("battery_power");
  file
    .u16(1076, statusCode(text(state, "status")))
    .u32(1017, tenths("solar_array_1_power"))
    .u32(1019, tenths("solar_array_2_power"))
    .u16(1001, tenths("solar_array_1_voltage"))
    .u16(1002, tenths("solar_array_2_voltage"))
    .u16(1009, tenths("solar_array_1_current"))
    .u16(1010, tenths("solar_array_2_current"))
    .u16(1061, tenths("grid_voltage"))
    .u16(1064, tenths("grid_current"))
    .u16(1067, unscaled(n("grid_frequency"), 0.01))
    .u32(1081, unscaled(positive(grid), 0.1))
    .u32(1079, unscaled(negative(grid), 0.1))
    .s32(1069, tenths("inverter_power"))
    .u32(1089, tenths("consumption_power"))
    .u16(1132, n("battery_soc"))
    .u32(1136, unscaled(positive(battery), 0.1))
    .u32(1138, unscaled(negative(battery), 0.1))
    .s16(1128, tenths("inverter_temperature"))
    .u32(1187, tenths("eps_power"))
    .u32(1189, n("eps_power") === undefined ? undefined : 0)
    .u32(1191, n("eps_power") === undefined ? undefined : 0);
  const energies: readonly [string, number][] = [
    ["today_solar_energy", 1412],
    ["total_solar_energy", 1374],
    ["today_ac_charge_energy", 1376],
    ["total_ac_charge_energy", 1378],
    ["today_grid_import_energy", 1380],
    ["total_grid_import_energy", 1382],
    ["today_grid_export_energy", 1384],
    ["total_grid_export_energy", 1386],
    ["today_battery_discharge_energy", 1388],
    ["total_battery_discharge_energy", 1390],
    ["today_battery_charge_energy", 1392],
    ["total_battery_charge_energy", 1394],
    ["today_consumption_energy", 1396],
    ["total_consumption_energy", 1398],
  ];
  for (const [key, register] of energies) file.u32(register, tenths(key));
}

/** A name's code in one of the EMS's tables: the inverse of the decoder's. */
const codesOf = (table: Readonly<Record<number, string>>): Readonly<Record<string, number>> =>
  Object.fromEntries(Object.entries(table).map(([code, name]) => [name, Number(code)]));
const EMS_INVERTER_CODES = codesOf(EMS_INVERTER_STATUS);
const EMS_METER_CODES = codesOf(EMS_METER_STATUS);
const EMS_METER_TYPE_CODES = codesOf(EMS_METER_TYPE);

/**
 * The inverse of `decodeEms`: the rollup, one slot per managed inverter (its serial from
 * `children`, its values from `inverter_N_*`) and one per meter (`meter_N_*`, N the slot; a meter
 * without `meter_N_type` is taken for a grid meter). Grid powers go on the wire into the house
 * positive, as the EMS keeps them.
 */
export function encodeEms(file: RegisterFile, state: State, children: readonly string[]): void {
  const n = (key: string): number | undefined => num(state, key);
  file
    .u16(2040, statusCode(text(state, "status")))
    .s16(2090, n("battery_power"))
    .u16(2091, unscaled(n("battery_energy_remaining"), 0.001))
    .s16(2089, negated(n("grid_power")))
    .u16(2088, n("generation_power"))
    .u16(2087, n("measured_load_power"))
    .u16(2086, n("calculated_load_power"))
    .u16(2044, children.length);
  let packed = 0;
  children.forEach((serial, index) => {
    const prefix = `inverter_${index + 1}`;
    packed |= (EMS_INVERTER_CODES[text(state, `${prefix}_status`) ?? ""] ?? 0) << (index * 3);
    file
      .text(2066 + index * 5, 5, serial)
      .s16(2054 + index, n(`${prefix}_power`))
      .u16(2058 + index, n(`${prefix}_soc`))
      .s16(2062 + index, unscaled(n(`${prefix}_temperature`), 0.1));
  });
  file.u16(2045, packed);
  let meters = 0;
  let types = 0;
  for (let index = 0; index < 8; index++) {
    const status = text(state, `meter_${index + 1}_status`);
    if (status === undefined) continue;
    meters |= (EMS_METER_CODES[status] ?? 0) << (index * 2);
    const type = text(state, `meter_${index + 1}_type`) ?? "GRID";
    types |= (EMS_METER_TYPE_CODES[type] ?? 0) << (index * 2);
    const power = n(`meter_${index + 1}_power`);
    // Into the house positive on the wire: a grid meter's export-positive power flips.
    file.s16(2046 + index, type === "GRID" ? negated(power) : power);
  }
  file.u16(2043, meters).u16(2042, types);
}

const WORK_MODE_CODES: Readonly<Record<string, number>> = {
  INITIALISING: 0,
  OFF_GRID: 1,
  ON_GRID: 2,
  FAULT: 3,
  UPDATE: 4,
};

/**
 * The inverse of `decodeGateway`: firmware like `GAAA0014` (four letters, then four digits a byte
 * each), battery powers charge positive as the gateway keeps them, the All-in-Ones' slots from
 * `aio_N_*`. `battery_soc` is the slots' mean and has no register of its own.
 */
export function encodeGateway(file: RegisterFile, state: State): void {
  const n = (key: string): number | undefined => num(state, key);
  const tenths = (key: string): number | undefined => unscaled(n(key), 0.1);
  const firmware = text(state, "firmware");
  if (firmware !== undefined && /^[\x20-\x7e]{4}\d{4}$/.test(firmware)) {
    const digit = (index: number): number => Number(firmware[index]);
    file
      .text(1600, 2, firmware.slice(0, 4))
      .u16(1602, (digit(4) << 8) | digit(5))
      .u16(1603, (digit(6) << 8) | digit(7));
  }
  file
    .u16(1604, WORK_MODE_CODES[text(state, "work_mode") ?? ""])
    .s16(1608, tenths("grid_voltage"))
    .s16(1609, tenths("grid_current"))
    .u16(1617, n("solar_power"))
    .u16(1618, n("consumption_power"))
    .s16(1702, negated(n("battery_power")))
    .u16(1640, tenths("today_grid_import_energy"))
    .u16(1643, tenths("today_solar_energy"))
    .u16(1646, tenths("today_grid_export_energy"))
    .u16(1795, tenths("today_battery_charge_energy"))
    .u16(1798, tenths("today_battery_discharge_energy"))
    .u16(1655, tenths("today_consumption_energy"))
    .u16(1700, n("aio_count"));
  // The GA00 line from GA000010 on keeps its totals low word first, and its serials elsewhere (gateway.ts says why).
  const ga00 = firmware?.startsWith("GA00") === true;
  const swapped = ga00 && Number(firmware?.slice(4)) >= 10;
  const serials = !ga00
    ? { first: 1841, stride: 5 }
    : swapped
      ? { first: 1841, stride: 7 }
      : { first: 1831, stride: 7 };
  const totals: readonly [string, number][] = [
    ["total_grid_import_energy", 1641],
    ["total_solar_energy", 1644],
    ["total_grid_export_energy", 1647],
    ["total_battery_charge_energy", 1796],
    ["total_battery_discharge_energy", 1799],
    ["total_consumption_energy", 1656],
  ];
  for (const [key, high] of totals) {
    if (swapped) file.u32(high + 1, tenths(key), high);
    else file.u32(high, tenths(key));
  }
  for (let index = 0; index < GATEWAY_AIO_SLOTS; index++) {
    const prefix = `aio_${index + 1}`;
    const serial = text(state, `${prefix}_serial`);
    if (serial === undefined) continue;
    file
      .text(serials.first + index * serials.stride, 5, serial)
      .u16(1801 + index, n(`${prefix}_soc`))
      .s16(1816 + index, negated(n(`${prefix}_power`)));
  }
}

/** The inverse of `decodeLvBattery` and `lvBatterySerial`: one temperature for all four sensors. */
export function encodeLvBattery(file: RegisterFile, state: State, serial: string): void {
  const n = (key: string): number | undefined => num(state, key);
  const temperature = unscaled(n("temperature"), 0.1);
  file
    .text(110, 5, serial)
    .u16(100, n("soc"))
    .u32(82, unscaled(n("voltage"), 0.001))
    .u32(84, unscaled(n("capacity"), 0.01))
    .u32(86, unscaled(n("design_capacity"), 0.01))
    .u32(88, unscaled(n("remaining_capacity"), 0.01))
    .u16(96, n("cycle_count"));
  for (const register of [76, 77, 78, 79]) file.s16(register, temperature);
}

/** The inverse of `decodeBcu` and `bcuSerial`: an HV stack's controller (its charge level in IR 80's high byte). */
export function encodeBcu(file: RegisterFile, state: State, serial: string): void {
  const n = (key: string): number | undefined => num(state, key);
  const soc = n("soc");
  file
    .text(138, 5, serial)
    .u16(64, n("modules"))
    .u16(73, unscaled(n("voltage"), 0.1))
    .s16(76, unscaled(n("current"), 0.1))
    .u16(80, soc === undefined ? undefined : Math.round(soc) << 8)
    .u16(81, n("state_of_health"))
    .u16(98, unscaled(n("design_capacity"), 0.1))
    .u16(99, unscaled(n("remaining_capacity"), 0.1))
    .u16(100, unscaled(n("cycle_count"), 0.1))
    .u32(82, unscaled(n("total_battery_charge_energy"), 0.1))
    .u32(84, unscaled(n("total_battery_discharge_energy"), 0.1));
}

/**
 * The inverse of `decodeBmu` and `bmuSerial`: a module of `cells` cells at `voltage` volts shared
 * evenly, its 12 temperature sensors (as the captures' All-in-One and three-phase modules fill them)
 * at one temperature.
 */
export function encodeBmu(file: RegisterFile, state: State, serial: string): void {
  const n = (key: string): number | undefined => num(state, key);
  const cells = Math.min(BMU_CELLS, n("cell_count") ?? BMU_CELLS);
  const voltage = n("voltage");
  const millivolts = voltage === undefined ? undefined : (voltage * 1000) / cells;
  const temperature = unscaled(n("temperature"), 0.1);
  file.text(114, 5, serial);
  for (let cell = 0; cell < cells; cell++) file.u16(60 + cell, millivolts);
  for (let sensor = 0; sensor < BMU_TEMPERATURE_SENSORS; sensor++) file.s16(90 + sensor, temperature);
}

/** The inverse of `decodeBamsSummary`: the BAMS's counts at 0xA0. */
export function encodeBamsSummary(file: RegisterFile, state: State): void {
  const n = (key: string): number | undefined => num(state, key);
  file.u16(61, n("stacks")).u16(62, n("modules")).u16(63, n("cell_count")).u16(64, n("temperature_sensors"));
}

/** The inverse of `decodeBamsCluster`: the stack's voltage and current as the BAMS at 0x90 repeats them. */
export function encodeBamsCluster(file: RegisterFile, state: State): void {
  const n = (key: string): number | undefined => num(state, key);
  file.u16(78, unscaled(n("voltage"), 0.1)).s16(80, unscaled(n("current"), 0.1));
}

/**
 * The inverse of `decodeMeter`: a meter's phase-1 voltage and current, its power as the meter
 * measures it (positive into the house: the captured grid meters read negative while exporting),
 * its frequency and, when given, its lifetime energies.
 */
export function encodeMeter(file: RegisterFile, state: State): void {
  const n = (key: string): number | undefined => num(state, key);
  file
    .u16(60, unscaled(n("voltage"), 0.1))
    .u16(67, unscaled(n("current"), 0.01))
    .s16(71, n("power"))
    .u16(84, unscaled(n("frequency"), 0.01))
    .u16(85, unscaled(n("total_import_energy"), 0.1))
    .u16(87, unscaled(n("total_export_energy"), 0.1));
}
