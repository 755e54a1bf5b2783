import { type HistoryRecord, jsonObject, timedRows } from "../store/index.js";
import type {
  ChargerMeterSample,
  ChargerSessionRecord,
  InverterFault,
  InverterPoint,
  SmartDeviceReading,
} from "../vocabulary/index.js";

/*
 * The daemon's records as history rows, whichever path fetched them. A record without a
 * readable time is dropped: it has no place in the history.
 */

export function inverterPointRows(serial: string, points: readonly InverterPoint[]): HistoryRecord[] {
  return timedRows(points, (point) => ({
    kind: "inverter.point",
    device: serial,
    at: point.measuredAt,
    key: "",
    data: jsonObject(point.data),
  }));
}

export function inverterFaultRows(serial: string, faults: readonly InverterFault[]): HistoryRecord[] {
  return timedRows(faults, (fault) => ({
    kind: "inverter.event",
    device: serial,
    at: fault.startMs ?? Number.NaN,
    key: fault.name,
    data: { event: fault.name, start_time: fault.written.start, end_time: fault.written.end },
  }));
}

/** One row per meter and moment: `{"Energy.Active.Import.Register": {"value": 12.3, "unit": "kWh"}, ...}`. */
export function chargerMeterRows(uuid: string, samples: readonly ChargerMeterSample[]): HistoryRecord[] {
  return timedRows(samples, (sample) => ({
    kind: "ev.meter",
    device: uuid,
    at: sample.measuredAt,
    key: String(sample.meterId),
    data: jsonObject(sample.measurands),
  }));
}

export function chargerSessionRows(uuid: string, sessions: readonly ChargerSessionRecord[]): HistoryRecord[] {
  return timedRows(sessions, (session) => ({
    kind: "ev.session",
    device: uuid,
    at: session.startedAtMs,
    key: "",
    data: jsonObject(session.data),
  }));
}

export function smartDeviceRows(uuid: string, readings: readonly SmartDeviceReading[]): HistoryRecord[] {
  return timedRows(readings, (reading) => ({
    kind: "smart.data",
    device: uuid,
    at: reading.measuredAt ?? Number.NaN,
    key: "",
    data: { power: reading.power },
  }));
}
