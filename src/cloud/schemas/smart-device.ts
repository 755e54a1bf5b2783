import { z } from "zod";
import { emptyAsObject, numeric, opt, timestamp } from "./common.js";

/** Free-form on creation, so keys beyond the documented three are kept. */
export const smartDeviceOtherData = z.looseObject({
  graph_color: opt(z.string()),
  hardware_id: opt(z.string()),
  local_key: opt(z.string()),
});
export type SmartDeviceOtherData = z.infer<typeof smartDeviceOtherData>;

export const smartDevice = z.object({
  uuid: z.string(),
  alias: opt(z.string()),
  /** `[]` when empty (PHP's empty map), as the documentation's examples show. */
  other_data: emptyAsObject(smartDeviceOtherData).nullish(),
});
export type SmartDevice = z.infer<typeof smartDevice>;

export const smartDeviceDataPoint = z.object({
  time: timestamp,
  /** W. */
  power: numeric,
});
export type SmartDeviceDataPoint = z.infer<typeof smartDeviceDataPoint>;

/** Body of POST /smart-device. */
export const createSmartDeviceRequest = z.object({
  serial_number: z.string().refine((serial) => serial.trim().length > 0, "serial_number is required"),
  alias: z.string().optional(),
  product_name: z.string().optional(),
  manufacturer: z.string().optional(),
  other_data: z.record(z.string(), z.unknown()).optional(),
});
export type CreateSmartDeviceRequest = z.input<typeof createSmartDeviceRequest>;

/** A Date is sent as `YYYY-MM-DDThh:mm:ssZ`, the reference's ISO8601-datetime. */
const isoDatetime = z.union([
  z.iso.datetime({ offset: true }),
  z
    .date()
    .refine((date) => !Number.isNaN(date.getTime()), "invalid date")
    .transform((date) => date.toISOString().replace(/\.\d{3}Z$/, "Z")),
]);

/** Body of POST /smart-device/{uuid}/data. */
export const smartDeviceDataRequest = z.object({
  time: isoDatetime,
  /** W, a whole number. */
  power: z.number().int(),
});
export type SmartDeviceDataRequest = z.input<typeof smartDeviceDataRequest>;

export { oneOrMany } from "./common.js";
