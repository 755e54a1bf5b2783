import { put, type Registers, type State, scaled, sum } from "./bank.js";

const WORK_MODES: Readonly<Record<number, string>> = {
  0: "INITIALISING",
  1: "OFF_GRID",
  2: "ON_GRID",
  3: "FAULT",
  4: "UPDATE",
};

function workMode(code: number | undefined): string | undefined {
  return code === undefined ? undefined : (WORK_MODES[code] ?? `UNKNOWN (${code})`);
}

/** Up to three All-in-Ones behind a gateway. */
export const GATEWAY_AIO_SLOTS = 3;

/**
 * The gateway's firmware, IR 1600-1603: two registers of ASCII, then each byte of the next two
 * as a decimal digit (GAAA0014 is `GA` `AA` 0x0000 0x0104).
 */
export function gatewayFirmware(ir: Registers): string | undefined {
  const prefix = ir.text(1600, 2);
  const third = ir.u16(1602);
  const fourth = ir.u16(1603);
  if (prefix === undefined || third === undefined || fourth === undefined) return undefined;
  return `${prefix}${[third >> 8, third & 0xff, fourth >> 8, fourth & 0xff].join("")}`;
}

/**
 * Whether the gateway keeps its 32-bit totals low word first. The public map (givenergy-modbus's
 * gateway model) swaps them from firmware GA000010 on, telling the versions apart by IR 1603
 * reaching 10 (GA000009 is 0x0009 there, GA000010 0x0100). The captured GAAA0014 also passes that
 * test (0x0104) yet decodes sanely only high word first (lifetime import 12,710.8 kWh; swapped it
 * reads 10^4 too large), so the swap is taken for the GA00 line the public map names, and the GAAA
 * line stays as captured.
 */
export function gatewaySwapsWords(ir: Registers): boolean {
  const prefix = ir.text(1600, 2);
  const fourth = ir.u16(1603);
  return prefix === "GA00" && fourth !== undefined && fourth >= 10;
}

/**
 * Where the All-in-Ones' serials start and how far apart: seven registers apart from IR 1831 on
 * the GA00 line before GA000010 and from IR 1841 after it (the public map); five apart from
 * IR 1841 on the captured GAAA0014 (its second serial is at IR 1846).
 */
export function gatewaySerialLayout(ir: Registers): { readonly first: number; readonly stride: number } {
  if (ir.text(1600, 2) !== "GA00") return { first: 1841, stride: 5 };
  return gatewaySwapsWords(ir) ? { first: 1841, stride: 7 } : { first: 1831, stride: 7 };
}

/**
 * The gateway's rollup, IR 1600-1859. Its 32-bit totals are high word first except on the
 * firmware `gatewaySwapsWords` names. Its battery powers are positive while charging, so they are
 * negated into the daemon's discharge-positive sign.
 */
export function decodeGateway(ir: Registers): State {
  const swapped = gatewaySwapsWords(ir);
  const total = (high: number): number | undefined => scaled(swapped ? ir.u32(high + 1, high) : ir.u32(high), 0.1);
  const negate = (value: number | undefined): number | undefined => (value === undefined ? undefined : -value || 0);
  const state = put(
    {},
    {
      firmware: gatewayFirmware(ir),
      work_mode: workMode(ir.u16(1604)),
      grid_voltage: scaled(ir.s16(1608), 0.1),
      grid_current: scaled(ir.s16(1609), 0.1),
      solar_power: ir.u16(1617),
      consumption_power: ir.u16(1618),
      battery_power: negate(ir.s16(1702)),
      today_grid_import_energy: scaled(ir.u16(1640), 0.1),
      today_solar_energy: scaled(ir.u16(1643), 0.1),
      today_grid_export_energy: scaled(ir.u16(1646), 0.1),
      // The battery's own counters (IR 1795-1800), not the AIOs' AC-side ones at IR 1649-1654.
      today_battery_charge_energy: scaled(ir.u16(1795), 0.1),
      today_battery_discharge_energy: scaled(ir.u16(1798), 0.1),
      today_consumption_energy: scaled(ir.u16(1655), 0.1),
      total_grid_import_energy: total(1641),
      total_solar_energy: total(1644),
      total_grid_export_energy: total(1647),
      total_battery_charge_energy: total(1796),
      total_battery_discharge_energy: total(1799),
      total_consumption_energy: total(1656),
      aio_count: ir.u16(1700),
    },
  );
  const socs: number[] = [];
  for (const slot of gatewaySlots(ir)) {
    put(state, {
      [`aio_${slot.number}_serial`]: slot.serial,
      [`aio_${slot.number}_soc`]: slot.soc,
      [`aio_${slot.number}_power`]: slot.power,
    });
    if (slot.soc !== undefined) socs.push(slot.soc);
  }
  if (socs.length > 0) state.battery_soc = Math.round((sum(...socs) ?? 0) / socs.length);
  return state;
}

export interface GatewaySlot {
  readonly number: number;
  readonly serial: string;
  readonly soc?: number;
  /** Discharge positive, W. */
  readonly power?: number;
}

/** The All-in-Ones the gateway lists (where `gatewaySerialLayout` says), those with a serial. */
export function gatewaySlots(ir: Registers): GatewaySlot[] {
  const slots: GatewaySlot[] = [];
  const { first, stride } = gatewaySerialLayout(ir);
  for (let index = 0; index < GATEWAY_AIO_SLOTS; index++) {
    const serial = ir.text(first + index * stride, 5);
    if (!serial) continue;
    const soc = ir.u16(1801 + index);
    const raw = ir.s16(1816 + index);
    slots.push({
      number: index + 1,
      serial,
      ...(soc === undefined ? {} : { soc }),
      ...(raw === undefined ? {} : { power: -raw || 0 }),
    });
  }
  return slots;
}
