import { describe, expect, it } from "vitest";
import { emsSystemData } from "../../../src/cloud/schemas/ems.js";
import { chargerMeterRecord, chargingSession, evCharger } from "../../../src/cloud/schemas/ev-charger.js";
import { meterData, systemData } from "../../../src/cloud/schemas/inverter-data.js";
import {
  detailsOf,
  entitiesFor,
  inventoryState,
  type StateValues,
  statePatch,
} from "../../../src/homeassistant/entities/index.js";
import { chargerMeterValues, chargerSessionOf, chargerStatusValues } from "../../../src/sources/cloud/ev-readings.js";
import { inverterFaultOf } from "../../../src/sources/cloud/history-items.js";
import { counterValuesOf, emsValuesOf, liveValuesOf } from "../../../src/sources/cloud/readings.js";
import type { Device } from "../../../src/sources/index.js";
import type { Availability, DeviceState } from "../../../src/telemetry/index.js";
import { deviceIdOf } from "../../../src/vocabulary/device-id.js";

type Reading = DeviceState | Availability;

import { charger, ems, fixture, inverter, smart } from "./inventory.js";

const body = (name: string): unknown => (fixture(name) as { data: unknown }).data;
const live = systemData.parse(body("system-data-latest.example.json"));
const counters = meterData.parse(body("meter-data-latest.example.json"));
const at = Date.parse("2025-02-09T15:20:10Z");

function patch(reading: Reading, state?: StateValues): StateValues {
  const result = statePatch(reading, (id) => (id === charger.uuid.toLowerCase() ? state : undefined));
  if (!result) throw new Error("no patch");
  return result.values;
}

/** Every key a patch fills is an entity of the device. */
function expectEntityKeys(device: Device, values: StateValues): void {
  const keys = new Set(entitiesFor(device).map((entity) => entity.key));
  expect(Object.keys(values).filter((key) => !keys.has(key))).toEqual([]);
}

describe("statePatch: inverter", () => {
  it("puts live data (system-data/latest) under the entity keys", () => {
    const result = statePatch({
      kind: "inverter.live",
      serial: "SD2024G001",
      at,
      measuredAt: at,
      values: liveValuesOf(live),
    });
    expect(result?.device).toBe("sd2024g001");
    expect(result?.values).toEqual({
      status: "Normal",
      solar_power: 131,
      grid_power: 151,
      grid_voltage: 237.1,
      grid_current: 4.2,
      grid_frequency: 50.05,
      battery_soc: 60,
      battery_power: 902,
      battery_temperature: 12,
      inverter_power: 1029,
      inverter_temperature: 27.2,
      inverter_output_voltage: 237.8,
      inverter_output_frequency: 50.06,
      eps_power: 10,
      consumption_power: 878,
      solar_array_1_power: 77,
      solar_array_1_voltage: 251.7,
      solar_array_1_current: 0.3,
      solar_array_2_power: 54,
      solar_array_2_voltage: 144.2,
      solar_array_2_current: 0.3,
    });
    expectEntityKeys(inverter, result?.values ?? {});
  });

  it("reads missing values as unknown (null)", () => {
    const values = patch({
      kind: "inverter.live",
      serial: "SD2024G001",
      at,
      measuredAt: at,
      values: liveValuesOf({ time: live.time }),
    });
    expect(values.grid_power).toBeNull();
    expect(values.status).toBeNull();
  });

  it("puts the energy counters (meter-data/latest) under the entity keys, in kWh", () => {
    const values = patch({ kind: "inverter.counters", serial: "SD2024G001", at, values: counterValuesOf(counters) });
    expect(values).toEqual({
      today_solar_energy: 1.7,
      today_grid_import_energy: 36.9,
      today_grid_export_energy: 0.8,
      today_battery_charge_energy: 10.2,
      today_battery_discharge_energy: 5.4,
      today_consumption_energy: 32.4,
      today_ac_charge_energy: 10.6,
      total_solar_energy: 6539.5,
      total_grid_import_energy: 19508.4,
      total_grid_export_energy: 3230.3,
      total_battery_charge_energy: 7290.95,
      total_battery_discharge_energy: 7290.95,
      total_consumption_energy: 21566.6,
      total_ac_charge_energy: 6350.8,
    });
    expectEntityKeys(inverter, values);
  });

  it("turns fault events into a problem and the latest event", () => {
    const event = { event: "Battery Over Temperature", start_time: "2025-02-09T14:02:11Z", end_time: null };
    const fault = inverterFaultOf(event, "Europe/London");
    expect(patch({ kind: "inverter.events", serial: "SD2024G001", at, active: [fault], latest: fault })).toEqual({
      fault: "ON",
      faults: "Battery Over Temperature",
      latest_fault: "Battery Over Temperature",
      latest_fault_start: "2025-02-09T14:02:11Z",
    });
    // A zoneless time is read in the account's zone for the history, but Home Assistant wants a zone.
    const cleared = inverterFaultOf(
      { ...event, start_time: "2025-02-09 14:02:11", end_time: "2025-02-09 14:20:00" },
      "Europe/London",
    );
    expect(patch({ kind: "inverter.events", serial: "SD2024G001", at, active: [], latest: cleared })).toEqual({
      fault: "OFF",
      faults: "None",
      latest_fault: "Battery Over Temperature",
      latest_fault_start: null,
    });
  });

  it("lists the active faults oldest first in one state Home Assistant takes (at most 255 characters)", () => {
    const faultNamed = (name: string, minute: number) =>
      inverterFaultOf(
        { event: name, start_time: `2025-02-09T14:${String(minute).padStart(2, "0")}:00Z`, end_time: null },
        "Europe/London",
      );
    const newestFirst = [faultNamed("Relay fault", 5), faultNamed("Grid voltage fault", 1)];
    expect(
      patch({ kind: "inverter.events", serial: "SD2024G001", at, active: newestFirst, latest: newestFirst[0] })?.faults,
    ).toBe("Grid voltage fault, Relay fault");
    const many = Array.from({ length: 40 }, (_, index) => faultNamed(`Battery warning bit ${index}`, index));
    const text = patch({ kind: "inverter.events", serial: "SD2024G001", at, active: many, latest: many[0] })?.faults;
    expect(String(text).length).toBe(255);
    expect(String(text).endsWith("…")).toBe(true);
  });

  it("gives the battery modules' values from the inventory", () => {
    expect(inventoryState(inverter)).toEqual({
      device: "sd2024g001",
      values: {
        battery_capacity: 9.5,
        battery_1_capacity: 184.82,
        battery_1_design_capacity: 186,
        battery_1_cycle_count: 212,
      },
    });
    expect(inventoryState(charger).values).toEqual({});
  });

  it("tells the solar arrays the live data shows", () => {
    expect(
      detailsOf({ kind: "inverter.live", serial: "SD2024G001", at, measuredAt: at, values: liveValuesOf(live) }),
    ).toEqual({
      solarArrays: 2,
    });
  });
});

describe("statePatch: EMS", () => {
  const data = emsSystemData.parse({
    time: "2025-02-09T15:00:00Z",
    status: 1,
    battery_power: -1200,
    battery_wh_remaining: 6150,
    calculated_load_power: 640,
    car_power: 0,
    grid_power: 35,
    measured_load_power: 655,
    total_generation: 1870,
    error_code: 0,
    warning_code: 0,
    inverters: [
      { number: 1, serial_number: "SE2024G101", active_power: 900, soc: 74, status: 2, temperature: 24.5 },
      { number: 2, serial_number: "SE2024G102", active_power: null, soc: null, status: 6, temperature: null },
    ],
    meters: [{ number: 1, active_power: 35, status: 1, type: 0 }],
  });

  it("gives plant values, per inverter and per meter, with Wh remaining as kWh", () => {
    const values = patch({ kind: "ems", serial: "EM2024E001", at, measuredAt: at, values: emsValuesOf(data) });
    expect(values).toEqual({
      status: "NORMAL",
      battery_power: -1200,
      battery_energy_remaining: 6.15,
      grid_power: 35,
      generation_power: 1870,
      measured_load_power: 655,
      calculated_load_power: 640,
      car_power: 0,
      error_code: 0,
      warning_code: 0,
      inverter_1_power: 900,
      inverter_1_soc: 74,
      inverter_1_temperature: 24.5,
      inverter_1_status: "ONLINE",
      inverter_2_power: null,
      inverter_2_soc: null,
      inverter_2_temperature: null,
      inverter_2_status: null,
      meter_1_power: 35,
      meter_1_status: "ONLINE",
      meter_1_type: "GRID",
    });
    expectEntityKeys(ems, values);
    expect(detailsOf({ kind: "ems", serial: "EM2024E001", at, measuredAt: at, values: emsValuesOf(data) })).toEqual({
      emsMeters: 1,
    });
  });
});

describe("statePatch: EV charger and smart device", () => {
  const uuid = charger.uuid;

  it("gives the status as one of the enum's options and the charger's connectivity", () => {
    const data = evCharger.parse({ uuid, serial_number: "EVC2024A001", status: "Charging", online: true });
    const result = statePatch({ kind: "ev.status", uuid, at, values: chargerStatusValues(data) });
    expect(result).toEqual({ device: uuid.toLowerCase(), values: { status: "Charging", online: "ON" } });
    const odd = evCharger.parse({ uuid, serial_number: "EVC2024A001", status: "Occupied", online: false });
    expect(patch({ kind: "ev.status", uuid, at, values: chargerStatusValues(odd) })).toEqual({
      status: null,
      online: "OFF",
    });
  });

  it("converts meter measurands to the entities' units", () => {
    const latest = chargerMeterRecord.parse({
      meter_id: 0,
      timestamp: "2025-02-09T15:20:00Z",
      measurements: [
        { measurand: 4, value: 1523456, unit: 0 },
        { measurand: 13, value: 7.2, unit: 5 },
        { measurand: 1, value: 31.3, unit: 10 },
        { measurand: 21, value: 229.8, unit: null },
        { measurand: 20, value: 68, unit: 13 },
        { measurand: 19, value: 55, unit: 15 },
        { measurand: 11, value: 50.01, unit: null },
      ],
    });
    const values = patch({ kind: "ev.meter", uuid, at, measuredAt: at, values: chargerMeterValues(latest) });
    expect(values).toEqual({
      energy: 1523.456,
      power: 7200,
      current: 31.3,
      voltage: 229.8,
      temperature: 20,
      soc: 55,
      frequency: 50.01,
    });
    expectEntityKeys(charger, values);
  });

  it("gives a session's energy: stopped from its meter readings, open from the register last seen", () => {
    const stopped = chargingSession.parse({
      started_by: "PLUG_AND_GO",
      meter_start: 1500.25,
      started_at: "2025-02-09T13:00:00Z",
      meter_stop: 1512.75,
      stopped_at: "2025-02-09T14:30:00Z",
      stop_reason: "EVDisconnected",
    });
    expect(patch({ kind: "ev.session", uuid, at, session: chargerSessionOf(stopped) })).toEqual({
      session_energy: 12.5,
      session_started_at: "2025-02-09T13:00:00Z",
    });
    const open = chargingSession.parse({ started_by: 42, meter_start: 1500.25, started_at: "2025-02-09T13:00:00Z" });
    expect(
      patch({ kind: "ev.session", uuid, at, session: chargerSessionOf(open) }, { energy: 1523.456 }).session_energy,
    ).toBe(23.206);
    expect(patch({ kind: "ev.session", uuid, at, session: chargerSessionOf(open) }).session_energy).toBeNull();
    expect(patch({ kind: "ev.session", uuid, at, session: undefined })).toEqual({
      session_energy: null,
      session_started_at: null,
    });
  });

  it("gives a smart device's power and nothing for availability", () => {
    const point = { power: 1800, measuredAt: Date.parse("2025-02-09T15:20:00Z") };
    expect(statePatch({ kind: "smart.data", uuid: smart.uuid, at, point })).toEqual({
      device: smart.uuid,
      values: { power: 1800 },
    });
    expect(
      statePatch({ kind: "availability", device: deviceIdOf("SD2024G001"), at, available: false, reason: "LOST" }),
    ).toBeUndefined();
  });
});
