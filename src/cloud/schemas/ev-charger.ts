import { z } from "zod";
import { list, numeric, opt, timestamp } from "./common.js";

/**
 * Charger statuses. The reference shows Charging, Unavailable and Preparing and says others
 * exist; chargers speak OCPP 1.6, whose ChargePointStatus set is listed here. The schema keeps
 * the set open, so a value not listed still parses.
 */
// OCPP's statuses are the daemon's words (src/vocabulary/charger.ts).
export { EV_CHARGER_STATUSES, type KnownEvChargerStatus } from "../../vocabulary/charger.js";

/** Open set: any string, so a status not yet seen does not break a listing. */
export const evChargerStatus = z.string();
export type EvChargerStatus = z.infer<typeof evChargerStatus>;

/** The reference's operating modes (EcoPlus appears in the Get Command Data example): the daemon's words. */
export { EV_OPERATING_MODES, type KnownEvOperatingMode } from "../../vocabulary/charger.js";
/** Open set: mode IDs come from the charger's own `available` list (change-mode data). */
export const evOperatingMode = z.string();

export const EV_STOP_REASONS = [
  "EmergencyStop",
  "EVDisconnected",
  "HardReset",
  "Local",
  "Other",
  "PowerLoss",
  "Reboot",
  "Remote",
  "SoftReset",
  "UnlockCommand",
  "DeAuthorized",
] as const;
export type KnownEvStopReason = (typeof EV_STOP_REASONS)[number];

/** `started_by` for sessions started by plug and go or by inverter control; otherwise a tag number or user ID. */
export const STARTED_BY_PLUG_AND_GO = "PLUG_AND_GO";
export const STARTED_BY_INVERTER_CONTROL = "INVERTER_CONTROL";

export const evCharger = z.object({
  uuid: z.string(),
  serial_number: z.string(),
  type: opt(z.string()),
  alias: opt(z.string()),
  online: opt(z.boolean()),
  went_offline_at: opt(timestamp),
  status: opt(evChargerStatus),
});
export type EvCharger = z.infer<typeof evCharger>;

/** A tag number or a user ID; user IDs may arrive as JSON numbers, so both are read as strings. */
const actor = z.union([z.string(), z.number().transform(String)]);

/** The stopped_* fields and stop_reason are null while the session is open. */
export const chargingSession = z.object({
  started_by: actor,
  /** kWh, import register at the start. */
  meter_start: numeric,
  started_at: timestamp,
  stopped_by: opt(actor),
  meter_stop: opt(numeric),
  stopped_at: opt(timestamp),
  /** One of EV_STOP_REASONS; kept open. */
  stop_reason: opt(z.string()),
});
export type ChargingSession = z.infer<typeof chargingSession>;

/** True while the session has not stopped. */
export function isSessionOpen(session: Pick<ChargingSession, "stopped_at">): boolean {
  return session.stopped_at === null || session.stopped_at === undefined;
}

/** OCPP 1.6 measurands, by the integer the API uses. */
export const MEASURANDS = {
  0: "Current.Export",
  1: "Current.Import",
  2: "Current.Offered",
  3: "Energy.Active.Export.Register",
  4: "Energy.Active.Import.Register",
  5: "Energy.Reactive.Export.Register",
  6: "Energy.Reactive.Import.Register",
  7: "Energy.Active.Export.Interval",
  8: "Energy.Active.Import.Interval",
  9: "Energy.Reactive.Export.Interval",
  10: "Energy.Reactive.Import.Interval",
  11: "Frequency",
  12: "Power.Active.Export",
  13: "Power.Active.Import",
  14: "Power.Factor",
  15: "Power.Offered",
  16: "Power.Reactive.Export",
  17: "Power.Reactive.Import",
  18: "RPM",
  19: "SoC",
  20: "Temperature",
  21: "Voltage",
} as const;
export type Measurand = keyof typeof MEASURANDS;
export type MeasurandName = (typeof MEASURANDS)[Measurand];

/** A measurand has at most one unit, and none where implied. */
export const METER_UNITS = {
  0: "Wh",
  1: "kWh",
  2: "varh",
  3: "kvarh",
  4: "W",
  5: "kW",
  6: "VA",
  7: "kVA",
  8: "var",
  9: "kvar",
  10: "A",
  11: "V",
  12: "Celsius",
  13: "Fahrenheit",
  14: "K",
  15: "Percent",
} as const;
export type MeterUnit = keyof typeof METER_UNITS;
export type MeterUnitName = (typeof METER_UNITS)[MeterUnit];

export function isMeasurand(value: number): value is Measurand {
  return Object.hasOwn(MEASURANDS, value);
}

export function isMeterUnit(value: number): value is MeterUnit {
  return Object.hasOwn(METER_UNITS, value);
}

/** The name of a measurand, or undefined for a number outside the table. */
export function measurandName(value: number): MeasurandName | undefined {
  return isMeasurand(value) ? MEASURANDS[value] : undefined;
}

/** The name of a unit; undefined for null (implied unit) or a number outside the table. */
export function meterUnitName(value: number | null | undefined): MeterUnitName | undefined {
  return typeof value === "number" && isMeterUnit(value) ? METER_UNITS[value] : undefined;
}

export const measurement = z.object({
  /** See MEASURANDS; kept as a plain integer so a new measurand does not break a record. */
  measurand: z.number().int(),
  value: numeric,
  /** See METER_UNITS; null where the unit is implied. */
  unit: opt(z.number().int()),
});
export type Measurement = z.infer<typeof measurement>;

export const chargerMeterRecord = z.object({
  meter_id: z.number().int(),
  /** ISO 8601 UTC; older responses send a local datetime, kept as sent. */
  timestamp,
  measurements: list(measurement),
});
export type ChargerMeterRecord = z.infer<typeof chargerMeterRecord>;
