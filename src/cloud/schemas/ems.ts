import { z } from "zod";
import { list, numeric, opt } from "./common.js";

// The codes' names are the daemon's (src/vocabulary/ems-statuses.ts): the device numbers them the same in its registers.

export const emsInverter = z.object({
  number: z.number().int(),
  serial_number: opt(z.string()),
  /** W. */
  active_power: opt(numeric),
  /** %. */
  soc: opt(numeric),
  /** The inverter's status code. */
  status: z.number().int(),
  /** °C. */
  temperature: opt(numeric),
});
export type EmsInverter = z.infer<typeof emsInverter>;

export const emsMeter = z.object({
  number: z.number().int(),
  /** W. */
  active_power: opt(numeric),
  /** The meter's status code. */
  status: opt(z.number().int()),
  /** The meter's type code. */
  type: opt(z.number().int()),
});
export type EmsMeter = z.infer<typeof emsMeter>;

/** GET /ems/{serial}/system-data/latest. Powers in W, energy in Wh. */
export const emsSystemData = z.object({
  /** Kept as sent; the reference gives no format, and it may be null. */
  time: opt(z.string()),
  /** The plant's status code; null when the EMS has not reported. */
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
