import { describe, expect, it } from "vitest";
import type { ChargerMeterRecord } from "../../src/cloud/schemas/ev-charger.js";
import { chargerMeterValues } from "../../src/sources/cloud/ev-readings.js";
import { meterRecords } from "../../src/sources/cloud/history-records.js";
import { flattenRecord } from "../../src/store/index.js";

const UUID = "9c6f3c1e-6b2a-4f3e-9a51-2b7d1c0e8f44";

function record(
  timestamp: string,
  energy: [number, number | null],
  power: [number, number | null],
): ChargerMeterRecord {
  return {
    meter_id: 0,
    timestamp,
    measurements: [
      { measurand: 4, value: energy[0], unit: energy[1] },
      { measurand: 13, value: power[0], unit: power[1] },
      { measurand: 21, value: 230.1, unit: 11 },
    ],
  };
}

const RECORDS = [
  record("2025-06-18T09:00:00Z", [1523456, 0], [7200, 4]),
  record("2025-06-18T09:05:00Z", [1524.056, 1], [7.2, 5]),
  record("2025-06-18T09:10:00Z", [1524656, null], [7.2, null]),
];

describe("charger meter records", () => {
  it("are kept in kWh and W whatever unit each record came in, and export under those units", () => {
    const rows = meterRecords(UUID, RECORDS, "Europe/London");
    expect(rows.map((row) => row.data["Energy.Active.Import.Register"])).toEqual([
      { value: 1523.456, unit: "kWh" },
      { value: 1524.056, unit: "kWh" },
      { value: 1524.656, unit: "kWh" },
    ]);
    expect(rows.map((row) => row.data["Power.Active.Import"])).toEqual([
      { value: 7200, unit: "W" },
      { value: 7200, unit: "W" },
      { value: 7200, unit: "W" },
    ]);
    expect(rows[0]?.data.Voltage).toEqual({ value: 230.1, unit: "V" });
    const last = rows[2];
    if (!last) throw new Error("expected three rows");
    const cells = flattenRecord(last);
    expect(cells.get("Energy.Active.Import.Register (kWh)")).toBe(1524.656);
    expect(cells.get("Power.Active.Import (W)")).toBe(7200);
  });

  it("give Home Assistant the same kWh and W as the history", () => {
    expect(RECORDS.map((one) => chargerMeterValues(one)).map(({ energy, power }) => [energy, power])).toEqual([
      [1523.456, 7200],
      [1524.056, 7200],
      [1524.656, 7200],
    ]);
  });
});
