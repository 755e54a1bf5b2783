import { z } from "zod";
import { list, numeric, opt } from "./common.js";

/** EMS status (top-level `status`). */
export const EMS_STATUS = {
  0: "WAITING",
  1: "NORMAL",
  2: "WARNING",
  3: "ERROR",
  4: "UPDATING",
  5: "BYPASS",
} as const satisfies Readonly<Record<number, string>>;

/** Status of an inverter behind the EMS (`inverters[].status`); 6 is not documented. */
export const EMS_INVERTER_STATUS = {
  0: "DISABLED",
  1: "WAITING",
  2: "ONLINE",
  3: "WARNING",
  4: "ERROR",
  5: "FLASH",
  7: "OFFLINE",
} as const satisfies Readonly<Record<number, string>>;

/** Status of a meter behind the EMS (`meters[].status`). */
export const EMS_METER_STATUS = {
  0: "DISABLED",
  1: "ONLINE",
  2: "OFFLINE",
} as const satisfies Readonly<Record<number, string>>;

/** What a meter behind the EMS measures (`meters[].type`). */
export const EMS_METER_TYPE = {
  0: "GRID",
  1: "GENERATION",
  2: "LOAD",
  3: "OTHER",
} as const satisfies Readonly<Record<number, string>>;

/**
 * The name of a code in one of the tables above, or undefined for a code the reference
 * does not list (the service may add values; callers decide how to show them).
 */
export function emsCodeName<T extends Readonly<Record<number, string>>>(
  table: T,
  code: number | null | undefined,
): T[keyof T] | undefined {
  if (code === null || code === undefined || !Object.hasOwn(table, code)) return undefined;
  return table[code as keyof T];
}

export const emsInverter = z.object({
  number: z.number().int(),
  serial_number: opt(z.string()),
  /** W. */
  active_power: opt(numeric),
  /** %. */
  soc: opt(numeric),
  /** EMS_INVERTER_STATUS. */
  status: z.number().int(),
  /** °C. */
  temperature: opt(numeric),
});
export type EmsInverter = z.infer<typeof emsInverter>;

export const emsMeter = z.object({
  number: z.number().int(),
  /** W. */
  active_power: opt(numeric),
  /** EMS_METER_STATUS. */
  status: opt(z.number().int()),
  /** EMS_METER_TYPE. */
  type: opt(z.number().int()),
});
export type EmsMeter = z.infer<typeof emsMeter>;

/** GET /ems/{serial}/system-data/latest. Powers in W, energy in Wh. */
export const emsSystemData = z.object({
  /** Kept as sent; the reference gives no format, and it may be null. */
  time: opt(z.string()),
  /** EMS_STATUS; null when the EMS has not reported. */
  status: opt(z.number().int()),
  // The reference types these as integers, but a missing value is null by its conventions,
  // and one absent reading should not cost the whole poll.
  battery_power: opt(numeric),
  battery_wh_remaining: opt(numeric),
  calculated_load_power: opt(numeric),
  car_power: opt(numeric),
  grid_power: opt(numeric),
  measured_load_power: opt(numeric),
  total_generation: opt(numeric),
  error_code: opt(z.number().int()),
  warning_code: opt(z.number().int()),
  inverters: list(emsInverter),
  meters: list(emsMeter),
});
export type EmsSystemData = z.infer<typeof emsSystemData>;
