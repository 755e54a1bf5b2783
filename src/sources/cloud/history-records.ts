import type {
  ChargerMeterRecord,
  ChargingSession,
  EnergyFlowRecord,
  InverterDataPoint,
  InverterFaultEvent,
  SmartDeviceDataPoint,
} from "../../cloud/index.js";
import { measurandName, normalised } from "../../cloud/index.js";
import { type HistoryRecord, type JsonObject, jsonObject, timedRows } from "../../store/index.js";
import { timestampCandidates, timestampMs } from "../../time/index.js";

/** The cloud's answers (data points, flows, fault events, charging sessions, meter data, smart devices' data) as history rows. Anything without a readable time is dropped: it has no place in the history. */

export function pointRecords(serial: string, points: readonly InverterDataPoint[], tz: string): HistoryRecord[] {
  return timedRows(points, (point) => ({
    kind: "inverter.point",
    device: serial,
    at: timestampMs(point.time, tz),
    key: "",
    data: withoutTime(point),
  }));
}

/**
 * Flow records carry local start times, which repeat in the hour the clocks go back; the
 * answer is in time order, so a repeat is the later of the two instants.
 */
export function flowRecords(
  kind: "flow.half_hour" | "flow.day",
  serial: string,
  flows: readonly EnergyFlowRecord[],
  tz: string,
): HistoryRecord[] {
  let previous = Number.NEGATIVE_INFINITY;
  const out: HistoryRecord[] = [];
  for (const flow of flows) {
    const candidates = timestampCandidates(flow.start_time, tz);
    const at = candidates.find((ms) => ms > previous) ?? candidates[0];
    if (at === undefined || Number.isNaN(at)) continue;
    previous = at;
    out.push({ kind, device: serial, at, key: "", data: jsonObject(flow.data) });
  }
  return out;
}

export function eventRecords(serial: string, events: readonly InverterFaultEvent[], tz: string): HistoryRecord[] {
  return timedRows(events, (event) => ({
    kind: "inverter.event",
    device: serial,
    at: timestampMs(event.start_time, tz),
    key: event.event,
    data: jsonObject({ event: event.event, start_time: event.start_time, end_time: event.end_time ?? null }),
  }));
}

export function sessionRecords(uuid: string, sessions: readonly ChargingSession[], tz: string): HistoryRecord[] {
  return timedRows(sessions, (session) => ({
    kind: "ev.session",
    device: uuid,
    at: timestampMs(session.started_at, tz),
    key: "",
    data: jsonObject(session),
  }));
}

/**
 * One row per meter and moment: `{"Energy.Active.Import.Register": {"value": 12.3, "unit": "kWh"}, ...}`.
 * Energies are kept in kWh and powers in W whatever unit the charger sent (see meter-units).
 */
export function meterRecords(uuid: string, records: readonly ChargerMeterRecord[], tz: string): HistoryRecord[] {
  return timedRows(records, (record) => {
    const data: JsonObject = {};
    for (const m of record.measurements) {
      data[measurandName(m.measurand) ?? String(m.measurand)] = normalised(m);
    }
    return {
      kind: "ev.meter",
      device: uuid,
      at: timestampMs(record.timestamp, tz),
      key: String(record.meter_id),
      data,
    };
  });
}

export function smartRecords(uuid: string, points: readonly SmartDeviceDataPoint[], tz: string): HistoryRecord[] {
  return timedRows(points, (point) => ({
    kind: "smart.data",
    device: uuid,
    at: timestampMs(point.time, tz),
    key: "",
    data: { power: point.power },
  }));
}

/** The row's `at` holds the time: a copy in the data would only be another column to export. */
function withoutTime(value: object): JsonObject {
  const { time: _time, ...data } = jsonObject(value);
  return data;
}
