import { EMS_INVERTER_STATUS, EMS_METER_STATUS, EMS_METER_TYPE } from "../../vocabulary/index.js";
import { put, type Registers, type State, scaled, statusName } from "./bank.js";

export const EMS_INVERTER_SLOTS = 4;
export const EMS_METER_SLOTS = 8;

/** An inverter slot's status is three bits from the low end of IR 2045; a meter's, two bits of IR 2043; its type, two of IR 2042. */
const INVERTER_STATUS: Readonly<Record<number, string>> = EMS_INVERTER_STATUS;
const METER_STATUS: Readonly<Record<number, string>> = EMS_METER_STATUS;
const METER_TYPE: Readonly<Record<number, string>> = EMS_METER_TYPE;

/**
 * The EMS's meters and its grid figure read positive into the house: on the captured EMS at night
 * IR 2089 and the grid meter's IR 2046 read -1869 while its batteries discharged 2507 W (IR 2090)
 * into a 638 W load, and its own IR 30 (export positive, as on every inverter) read +1873; in the
 * evening the generation meter read +1076 W and the grid -347 W with a 729 W load. So the grid's
 * sign is flipped into the daemon's export positive; the battery's (IR 2090, the sum of its
 * inverters') is already discharge positive.
 */
const intoHouseToExport = (value: number | undefined): number | undefined =>
  value === undefined ? undefined : -value || 0;

export interface EmsChild {
  readonly number: number;
  readonly serial: string;
  readonly status?: string;
  /** W, positive delivering. */
  readonly power?: number;
  readonly soc?: number;
  readonly temperature?: number;
}

/** The inverters the EMS manages (IR 2044 counts them; serials at IR 2066, five registers each). */
export function emsChildren(ir: Registers): EmsChild[] {
  const count = Math.min(ir.u16(2044) ?? 0, EMS_INVERTER_SLOTS);
  const packed = ir.u16(2045);
  const children: EmsChild[] = [];
  for (let index = 0; index < count; index++) {
    const serial = ir.text(2066 + index * 5, 5);
    if (!serial) continue;
    const code = packed === undefined ? undefined : (packed >> (index * 3)) & 0b111;
    const power = ir.s16(2054 + index);
    const soc = ir.u16(2058 + index);
    const temperature = scaled(ir.s16(2062 + index), 0.1);
    children.push({
      number: index + 1,
      serial,
      ...(code === undefined ? {} : { status: INVERTER_STATUS[code] ?? `UNKNOWN (${code})` }),
      ...(power === undefined ? {} : { power }),
      ...(soc === undefined ? {} : { soc }),
      ...(temperature === undefined ? {} : { temperature }),
    });
  }
  return children;
}

/**
 * The EMS rollup, IR 2040-2094, under the daemon's EMS keys. The plant's battery power (IR 2090)
 * is the sum of its inverters' (IR 2054 on); the battery's Wh remaining becomes kWh.
 */
export function decodeEms(ir: Registers): State {
  const wh = ir.u16(2091);
  const state = put(
    {},
    {
      status: statusName(ir.u16(2040)),
      battery_power: ir.s16(2090),
      battery_energy_remaining: scaled(wh, 0.001),
      grid_power: intoHouseToExport(ir.s16(2089)),
      generation_power: ir.u16(2088),
      measured_load_power: ir.u16(2087),
      calculated_load_power: ir.u16(2086),
    },
  );
  for (const child of emsChildren(ir)) {
    const prefix = `inverter_${child.number}`;
    put(state, {
      [`${prefix}_power`]: child.power,
      [`${prefix}_soc`]: child.soc,
      [`${prefix}_temperature`]: child.temperature,
      [`${prefix}_status`]: child.status,
    });
  }
  // Meter slots follow the meters' chain addresses (0x01 and 0x03 on the captured EMS), two status
  // bits a slot from the low end of IR 2043; a slot reading 0 holds no meter. Their types are two
  // bits a slot of IR 2042 (the capture's 16: slot 1 GRID, slot 3 GENERATION, whose powers equal
  // IR 2089 and IR 2088). A grid meter's power is export positive like `grid_power`; the others
  // read as measured (a generation meter positive generating).
  const statuses = ir.u16(2043);
  const types = ir.u16(2042);
  for (let index = 0; index < EMS_METER_SLOTS; index++) {
    const code = statuses === undefined ? undefined : (statuses >> (index * 2)) & 0b11;
    if (code === 0) continue;
    const type = types === undefined ? undefined : METER_TYPE[(types >> (index * 2)) & 0b11];
    const power = ir.s16(2046 + index);
    put(state, {
      [`meter_${index + 1}_power`]: type === "GRID" ? intoHouseToExport(power) : power,
      [`meter_${index + 1}_status`]: code === undefined ? undefined : (METER_STATUS[code] ?? `UNKNOWN (${code})`),
      [`meter_${index + 1}_type`]: type,
    });
  }
  return state;
}
