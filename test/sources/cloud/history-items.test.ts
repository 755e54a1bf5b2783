import { describe, expect, it } from "vitest";
import { chargerMeterRecord, chargingSession } from "../../../src/cloud/schemas/ev-charger.js";
import { inverterDataPoint, inverterFaultEvent } from "../../../src/cloud/schemas/inverter-data.js";
import { smartDeviceDataPoint } from "../../../src/cloud/schemas/smart-device.js";
import {
  chargerMeterRows,
  chargerSessionRows,
  inverterFaultRows,
  inverterPointRows,
  smartDeviceRows,
} from "../../../src/history/rows.js";
import { chargerMeterSamplesOf, chargerSessionRecordsOf } from "../../../src/sources/cloud/ev-readings.js";
import { inverterFaultOf, inverterPointsOf, smartDeviceReadingOf } from "../../../src/sources/cloud/history-items.js";
import {
  eventRecords,
  meterRecords,
  pointRecords,
  sessionRecords,
  smartRecords,
} from "../../../src/sources/cloud/history-records.js";

/*
 * The live path converts the cloud's records into the daemon's words when it fetches them, and the
 * history makes its rows from those; the archive makes its rows from the cloud's records directly
 * (sources/cloud/history-records.ts). A row must come out the same byte for byte either way.
 */

const ZONE = "Europe/London";
/** Local times (the account's wall clock, UTC+1 in June), a zoned one, and one with no instant. */
const LOCAL = "2025-06-18 10:05:00";
const ZONED = "2025-06-18T09:10:00Z";
const NO_SUCH_DAY = "2025-02-30 10:00:00";

const bytes = (rows: readonly object[]): string => JSON.stringify(rows);

describe("the cloud's records as the history's rows, through the daemon's words", () => {
  it("keeps an inverter's data points as the cloud sent them, sections left out staying out", () => {
    const points = [
      {
        time: LOCAL,
        status: "Normal",
        power: {
          solar: { power: "900", arrays: [{ array: 1, voltage: 310.2, current: 1.4, power: 434 }] },
          grid: { voltage: 241.3, current: null, power: -120, frequency: 50.01 },
          battery: { percent: 55, power: 300, temperature: 21.5 },
          consumption: { power: 1080 },
          inverter: { temperature: 30, power: 1020, output_voltage: 240, output_frequency: 50, eps_power: 0 },
        },
        today: { solar: 3.2, grid: { import: 1.1, export: 0.4 }, battery: [], consumption: 4, ac_charge: null },
        total: { solar: 812.4 },
        is_metered: true,
      },
      { time: ZONED, status: "LOST", power: [], today: null },
      { time: NO_SUCH_DAY, power: {} },
    ].map((point) => inverterDataPoint.parse(point));

    const rows = inverterPointRows("SD1", inverterPointsOf(points, ZONE));
    expect(bytes(rows)).toBe(bytes(pointRecords("SD1", points, ZONE)));
    expect(rows.map((row) => row.at)).toEqual([Date.UTC(2025, 5, 18, 9, 5), Date.UTC(2025, 5, 18, 9, 10)]);
    expect(rows[1]?.data).toEqual({ status: "LOST", power: {}, today: null });
  });

  it("keeps a fault's times as the inverter wrote them, and shows Home Assistant only a zoned start", () => {
    const events = [
      { event: "Grid lost", start_time: LOCAL, end_time: null },
      { event: "Battery hot", start_time: ZONED, end_time: "2025-06-18T09:30:00Z" },
      { event: "Unknown", start_time: NO_SUCH_DAY },
    ].map((event) => inverterFaultEvent.parse(event));
    const faults = events.map((event) => inverterFaultOf(event, ZONE));

    const rows = inverterFaultRows("SD1", faults);
    expect(bytes(rows)).toBe(bytes(eventRecords("SD1", events, ZONE)));
    expect(rows.map((row) => [row.key, row.at])).toEqual([
      ["Grid lost", Date.UTC(2025, 5, 18, 9, 5)],
      ["Battery hot", Date.UTC(2025, 5, 18, 9, 10)],
    ]);
    expect(faults.map((fault) => fault.startedAt)).toEqual([null, "2025-06-18T09:10:00Z", null]);
  });

  it("keeps a charger's meter records in kWh and W, a repeated measurand at its last value", () => {
    const records = [
      {
        meter_id: 0,
        timestamp: ZONED,
        measurements: [
          { measurand: 4, value: 1523456, unit: 0 },
          { measurand: 13, value: 7.2, unit: null },
          { measurand: 1, value: 16, unit: 10 },
          { measurand: 99, value: 3 },
          { measurand: 1, value: 15.5, unit: 10 },
        ],
      },
      { meter_id: 1, timestamp: LOCAL, measurements: [] },
      { meter_id: 0, timestamp: NO_SUCH_DAY, measurements: [{ measurand: 4, value: 1, unit: 1 }] },
    ].map((record) => chargerMeterRecord.parse(record));

    const rows = chargerMeterRows("EV1", chargerMeterSamplesOf(records, ZONE));
    expect(bytes(rows)).toBe(bytes(meterRecords("EV1", records, ZONE)));
    expect(rows).toHaveLength(2);
    expect(rows[0]?.data).toEqual({
      "Energy.Active.Import.Register": { value: 1523.456, unit: "kWh" },
      "Power.Active.Import": { value: 7200, unit: "W" },
      "Current.Import": { value: 15.5, unit: "A" },
      "99": { value: 3, unit: null },
    });
  });

  it("keeps a charger's sessions as the cloud sent them, open or stopped", () => {
    const sessions = [
      { started_by: 42, meter_start: "1500.25", started_at: LOCAL },
      {
        started_by: "tag-1",
        meter_start: 1400,
        started_at: ZONED,
        stopped_by: "tag-1",
        meter_stop: 1412.5,
        stopped_at: "2025-06-18T11:00:00Z",
        stop_reason: "Local",
      },
      { started_by: "x", meter_start: 1, started_at: NO_SUCH_DAY, stopped_at: null },
    ].map((session) => chargingSession.parse(session));

    const rows = chargerSessionRows("EV1", chargerSessionRecordsOf(sessions, ZONE));
    expect(bytes(rows)).toBe(bytes(sessionRecords("EV1", sessions, ZONE)));
    expect(rows[0]?.data).toEqual({ started_by: "42", meter_start: 1500.25, started_at: LOCAL });
  });

  it("keeps a smart device's power at the time it measured it, and its power alone when the time is unreadable", () => {
    const points = [
      { time: LOCAL, power: 42 },
      { time: NO_SUCH_DAY, power: "7" },
    ].map((point) => smartDeviceDataPoint.parse(point));
    const readings = points.map((point) => smartDeviceReadingOf(point, ZONE));

    expect(bytes(smartDeviceRows("P1", readings))).toBe(bytes(smartRecords("P1", points, ZONE)));
    expect(readings).toEqual([
      { power: 42, measuredAt: Date.UTC(2025, 5, 18, 9, 5) },
      { power: 7, measuredAt: undefined },
    ]);
  });
});
