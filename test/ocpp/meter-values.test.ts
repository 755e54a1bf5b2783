import { describe, expect, it } from "vitest";
import { readMeterValues } from "../../src/ocpp/index.js";

const at = (timestamp: string, sampledValue: Record<string, string>[]) => ({
  timestamp,
  sampledValue: sampledValue.map((s) => ({ value: "0", ...s })),
});

describe("reading OCPP 1.6 meter values", () => {
  it("takes the spec's defaults: no measurand is the energy register, no unit is Wh (energy) or W (power)", () => {
    expect(readMeterValues([at("2026-06-21T12:00:00Z", [{ value: "12345" }])])).toEqual({ energyKwh: 12.345 });
    expect(
      readMeterValues([at("2026-06-21T12:00:00Z", [{ value: "3680", measurand: "Power.Active.Import" }])]),
    ).toEqual({ powerW: 3680 });
  });

  it("scales kW and kWh, reads current in A and the state of charge in percent", () => {
    expect(
      readMeterValues([
        at("2026-06-21T12:00:00Z", [
          { value: "11", measurand: "Power.Active.Import", unit: "kW" },
          { value: "16.5", measurand: "Current.Import", unit: "A" },
          { value: "42.125", measurand: "Energy.Active.Import.Register", unit: "kWh" },
          { value: "80", measurand: "SoC", unit: "Percent" },
        ]),
      ]),
    ).toEqual({ powerW: 11_000, currentA: 16.5, energyKwh: 42.125, socPercent: 80 });
  });

  it("sums per-phase power and takes the highest phase's current when no total came; a total wins", () => {
    const phases = [
      { value: "2300", measurand: "Power.Active.Import", unit: "W", phase: "L1-N" },
      { value: "2200", measurand: "Power.Active.Import", unit: "W", phase: "L2-N" },
      { value: "2100", measurand: "Power.Active.Import", unit: "W", phase: "L3-N" },
      { value: "10", measurand: "Current.Import", unit: "A", phase: "L1" },
      { value: "9.5", measurand: "Current.Import", unit: "A", phase: "L2" },
      { value: "9", measurand: "Current.Import", unit: "A", phase: "L3" },
    ];
    expect(readMeterValues([at("2026-06-21T12:00:00Z", phases)])).toEqual({ powerW: 6600, currentA: 10 });
    expect(
      readMeterValues([
        at("2026-06-21T12:00:00Z", [...phases, { value: "6.5", measurand: "Power.Active.Import", unit: "kW" }]),
      ]),
    ).toEqual({ powerW: 6500, currentA: 10 });
  });

  it("leaves out what it cannot read: signed data, not a number, a unit that does not fit, other measurands", () => {
    expect(
      readMeterValues([
        at("2026-06-21T12:00:00Z", [
          { value: "AAEC", format: "SignedData" },
          { value: "n/a", measurand: "Power.Active.Import" },
          { value: "", measurand: "Current.Import" },
          { value: "5", measurand: "Power.Active.Import", unit: "A" },
          { value: "230", measurand: "Voltage", unit: "V" },
          { value: "1000", measurand: "Energy.Active.Export.Register" },
          { value: "7", measurand: "Current.Import", unit: "A", location: "Body" },
        ]),
      ]),
    ).toEqual({});
  });

  it("lets the latest entry win for each quantity, by timestamp", () => {
    expect(
      readMeterValues([
        at("2026-06-21T12:05:00Z", [{ value: "2000" }]),
        at("2026-06-21T12:00:00Z", [{ value: "1000" }, { value: "7000", measurand: "Power.Active.Import" }]),
      ]),
    ).toEqual({ energyKwh: 2, powerW: 7000 });
  });
});
