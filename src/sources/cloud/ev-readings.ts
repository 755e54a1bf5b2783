import {
  type ChargerMeterRecord,
  type ChargingSession,
  type EvCharger,
  isSessionOpen,
  measurandName,
  normalised,
  toKwh,
  toW,
} from "../../cloud/index.js";
import { timestampMs, zonedTimestamp } from "../../time/index.js";
import { booleanValue } from "../../validation/index.js";
import {
  type ChargerMeterSample,
  type ChargerSession,
  type ChargerSessionRecord,
  EV_CHARGER_STATUSES,
  round,
  type StateValues,
} from "../../vocabulary/index.js";

/*
 * An EV charger's cloud records in the daemon's words (src/vocabulary/charger.ts): its status,
 * its meter's newest values under the state keys and units, its session, and its meter records
 * and sessions as the history keeps them (a record whose time cannot be read is dropped there).
 */

type Convert = (value: number, unit: number | null | undefined) => number | null;

/** Energy and power by the record's unit code; what a missing unit means is in cloud/meter-units. */
const kwh: Convert = (value, unit) => {
  const converted = toKwh({ value, unit });
  return converted === null ? null : round(converted);
};
const watts: Convert = (value, unit) => {
  const converted = toW({ value, unit });
  return converted === null ? null : round(converted);
};
/** A, V, Celsius and Percent are taken as implied when a record leaves the unit out. */
const toCelsius: Convert = (value, unit) =>
  unit === 12 || unit == null
    ? value
    : unit === 13
      ? round(((value - 32) * 5) / 9, 1)
      : unit === 14
        ? round(value - 273.15, 1)
        : null;
const as =
  (expected: number): Convert =>
  (value, unit) =>
    unit === expected || unit == null ? value : null;

/** The state key each measurand (by the cloud's number for it) is read into. */
const MEASURANDS: readonly { readonly measurand: number; readonly key: string; readonly convert: Convert }[] = [
  { measurand: 13, key: "power", convert: watts },
  { measurand: 4, key: "energy", convert: kwh },
  { measurand: 1, key: "current", convert: as(10) },
  { measurand: 21, key: "voltage", convert: as(11) },
  { measurand: 20, key: "temperature", convert: toCelsius },
  { measurand: 19, key: "soc", convert: as(15) },
  { measurand: 2, key: "current_offered", convert: as(10) },
  { measurand: 15, key: "power_offered", convert: watts },
  { measurand: 11, key: "frequency", convert: (value) => value },
];

/** A status outside OCPP's list reads as unknown, since Home Assistant refuses it in an enum. */
export function chargerStatusValues(data: EvCharger): StateValues {
  const status = typeof data.status === "string" && (EV_CHARGER_STATUSES as readonly string[]).includes(data.status);
  const online = booleanValue(data.online);
  return { status: status ? (data.status ?? null) : null, online: online === undefined ? null : online ? "ON" : "OFF" };
}

/** The first value of each measurand (a three-phase charger may send one per phase). */
export function chargerMeterValues(record: ChargerMeterRecord): StateValues {
  const values: StateValues = {};
  for (const field of MEASURANDS) {
    const measurement = record.measurements.find((one) => one.measurand === field.measurand);
    if (measurement) values[field.key] = field.convert(measurement.value, measurement.unit);
  }
  return values;
}

export function chargerSessionOf(session: ChargingSession): ChargerSession {
  return {
    startedAt: zonedTimestamp(session.started_at),
    open: isSessionOpen(session),
    meterStartKwh: session.meter_start,
    meterStopKwh: session.meter_stop ?? null,
  };
}

/**
 * Meter records as samples: each measurand by name (the cloud's number for one it does not name),
 * energies in kWh and powers in W (see cloud/meter-units); a repeated measurand keeps its last value.
 */
export function chargerMeterSamplesOf(records: readonly ChargerMeterRecord[], timeZone: string): ChargerMeterSample[] {
  return records.flatMap((record) => {
    const measuredAt = timestampMs(record.timestamp, timeZone);
    if (!Number.isFinite(measuredAt)) return [];
    const measurands: Record<string, { value: number; unit: string | null }> = {};
    for (const measurement of record.measurements)
      measurands[measurandName(measurement.measurand) ?? String(measurement.measurand)] = normalised(measurement);
    return [{ meterId: record.meter_id, measuredAt, measurands }];
  });
}

export function chargerSessionRecordsOf(
  sessions: readonly ChargingSession[],
  timeZone: string,
): ChargerSessionRecord[] {
  return sessions.flatMap((data) => {
    const startedAtMs = timestampMs(data.started_at, timeZone);
    return Number.isFinite(startedAtMs) ? [{ startedAtMs, data }] : [];
  });
}
