import { z } from "zod";
import { emptyArrayAs, list, numeric, obj, opt, timestamp, version } from "./common.js";

/*
 * The device list is the first call at start-up, so it is read as loosely as the real service
 * answers: PHP's `[]` for an empty object anywhere an object is expected, null where a device
 * has nothing, integer or string versions, models and fields not yet seen.
 */

/** A serial or code the service sends as a string on some devices and a number on others; read as a string. */
const text = z.union([z.string(), z.number().transform(String)]);

export const batteryModule = z.object({
  module_number: z.number().int(),
  serial: text,
  firmware_version: opt(version),
  capacity: obj({ full: opt(numeric), design: opt(numeric) }),
  cell_count: opt(z.number().int()),
  has_usb: opt(z.boolean()),
  nominal_voltage: opt(numeric),
  cycle_count: opt(z.number().int()),
});
export type BatteryModule = z.infer<typeof batteryModule>;

export const meter = z.object({
  address: opt(z.number().int()),
  /** A number (2075078) in the evidence; a string elsewhere. */
  serial_number: opt(z.union([z.number(), z.string()])),
  manufacturer_code: opt(text),
  type_code: opt(z.number().int()),
  hardware_version: opt(version),
  software_version: opt(version),
  baud_rate: opt(z.number().int()),
});
export type Meter = z.infer<typeof meter>;

/**
 * The communication device a gateway lists under `connections.datalog`: the gateway's own
 * dongle, shaped like a communication device without its inverter.
 */
export const datalog = z.object({
  serial_number: opt(text),
  firmware_version: opt(version),
  type: opt(z.string()),
  commission_date: opt(timestamp),
  site_id: opt(z.number().int()),
});
export type Datalog = z.infer<typeof datalog>;

export const INVERTER_STATUSES = ["NORMAL", "LOST", "ERROR", "WAITING", "UNKNOWN"] as const;

export const inverter = z.object({
  serial: z.string(),
  /** NORMAL, LOST, ERROR, WAITING, UNKNOWN (WARNING in the documentation); kept open for values not yet seen. */
  status: opt(z.string()),
  last_online: opt(timestamp),
  last_updated: opt(timestamp),
  commission_date: opt(timestamp),
  info: obj({
    battery_type: opt(z.string()),
    battery: obj({
      nominal_capacity: opt(numeric),
      nominal_voltage: opt(numeric),
      depth_of_discharge: opt(numeric),
    }),
    /** e.g. GIV-HY3.6, All-In-One, Gateway, Plant EMS, Unknown: an open set. */
    model: opt(z.string()),
    max_charge_rate: opt(numeric),
    max_discharge_rate: opt(numeric),
  }),
  warranty: obj({ type: opt(z.string()), expiry_date: opt(timestamp) }),
  /** Integers on most models (ARM 616, DSP 616); strings are kept as sent. */
  firmware_version: obj({ ARM: opt(version), DSP: opt(version) }),
  /** `[]` when the inverter has no connections at all: read as no batteries and no meters. */
  connections: obj({
    /** A gateway's own dongle. */
    datalog: obj(datalog.shape),
    batteries: list(batteryModule),
    meters: list(meter),
  }),
  flags: list(z.string()),
});
export type Inverter = z.infer<typeof inverter>;

export const communicationDevice = z.object({
  serial_number: z.string(),
  type: opt(z.string()),
  /** An integer (904) on the real service. */
  firmware_version: opt(version),
  commission_date: opt(timestamp),
  /** Null, absent or `[]` when the dongle has no inverter behind it. */
  inverter: emptyArrayAs(undefined, inverter.nullish()).optional(),
  site_id: opt(z.number().int()),
});
export type CommunicationDevice = z.infer<typeof communicationDevice>;
