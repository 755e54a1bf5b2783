import { z } from "zod";
import { list, opt, timestamp } from "./common.js";

export const batteryModule = z.object({
  module_number: z.number().int(),
  serial: z.string(),
  firmware_version: opt(z.union([z.string(), z.number()])),
  capacity: opt(z.object({ full: opt(z.number()), design: opt(z.number()) })),
  cell_count: opt(z.number().int()),
  has_usb: opt(z.boolean()),
  nominal_voltage: opt(z.number()),
  cycle_count: opt(z.number().int()),
});
export type BatteryModule = z.infer<typeof batteryModule>;

export const meter = z.object({
  address: z.number().int(),
  serial_number: opt(z.union([z.number(), z.string()])),
  manufacturer_code: opt(z.string()),
  type_code: opt(z.number().int()),
  hardware_version: opt(z.number().int()),
  software_version: opt(z.number().int()),
  baud_rate: opt(z.number().int()),
});
export type Meter = z.infer<typeof meter>;

export const INVERTER_STATUSES = ["NORMAL", "LOST", "ERROR", "WAITING", "UNKNOWN"] as const;

export const inverter = z.object({
  serial: z.string(),
  /** NORMAL, LOST, ERROR, WAITING, UNKNOWN; kept open for values not yet seen. */
  status: opt(z.string()),
  last_online: opt(timestamp),
  last_updated: opt(timestamp),
  commission_date: opt(timestamp),
  info: opt(
    z.object({
      battery_type: opt(z.string()),
      battery: opt(
        z.object({
          nominal_capacity: opt(z.number()),
          nominal_voltage: opt(z.number()),
          depth_of_discharge: opt(z.number()),
        }),
      ),
      model: opt(z.string()),
      max_charge_rate: opt(z.number()),
      max_discharge_rate: opt(z.number()),
    }),
  ),
  warranty: opt(z.object({ type: opt(z.string()), expiry_date: opt(timestamp) })),
  firmware_version: opt(z.object({ ARM: opt(z.number().int()), DSP: opt(z.number().int()) })),
  connections: opt(z.object({ batteries: list(batteryModule), meters: list(meter) })),
  flags: list(z.string()),
});
export type Inverter = z.infer<typeof inverter>;

export const communicationDevice = z.object({
  serial_number: z.string(),
  type: opt(z.string()),
  firmware_version: opt(z.union([z.string(), z.number()])),
  commission_date: opt(timestamp),
  inverter: opt(inverter),
  site_id: opt(z.number().int()),
});
export type CommunicationDevice = z.infer<typeof communicationDevice>;
