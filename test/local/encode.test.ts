import { describe, expect, it } from "vitest";
import { buildBroadcast, buildErrorResponse, parseFrame } from "../../src/local/frame.js";
import { Registers, type State } from "../../src/local/registers/bank.js";
import {
  bcuSerial,
  bmuSerial,
  decodeBamsSummary,
  decodeBcu,
  decodeBmu,
  decodeLvBattery,
  lvBatterySerial,
} from "../../src/local/registers/battery.js";
import { decodeEms } from "../../src/local/registers/ems.js";
import {
  encodeBamsSummary,
  encodeBcu,
  encodeBmu,
  encodeEms,
  encodeGateway,
  encodeIdentity,
  encodeLvBattery,
  encodeSinglePhase,
  encodeThreePhase,
  statusCode,
} from "../../src/local/registers/encode.js";
import { decodeGateway } from "../../src/local/registers/gateway.js";
import { detectModel } from "../../src/local/registers/model.js";
import { RegisterFile } from "../../src/local/registers/register-file.js";
import { decodeSinglePhase } from "../../src/local/registers/single-phase.js";
import { decodeThreePhase } from "../../src/local/registers/three-phase.js";

// Encoding then decoding gives back the state: the simulator's dongles and the decoders read one map.

const single: State = {
  status: "NORMAL",
  grid_power: -1234,
  grid_voltage: 241.3,
  grid_current: 5.2,
  grid_frequency: 49.98,
  battery_soc: 57,
  battery_power: -2500,
  battery_temperature: -3.5,
  inverter_power: 2890,
  inverter_temperature: 31.2,
  inverter_output_voltage: 241.9,
  inverter_output_frequency: 49.98,
  eps_power: 0,
  consumption_power: 812,
  today_grid_import_energy: 3.4,
  today_grid_export_energy: 7.1,
  today_ac_charge_energy: 1.2,
  today_battery_charge_energy: 4.5,
  today_battery_discharge_energy: 2.2,
  total_grid_import_energy: 12710.8,
  total_grid_export_energy: 98765.4,
};
const arrays: State = {
  solar_power: 3100,
  solar_array_1_power: 3000,
  solar_array_2_power: 100,
  solar_array_1_voltage: 320.5,
  solar_array_2_voltage: 180,
  solar_array_1_current: 9.4,
  solar_array_2_current: 0.6,
  today_solar_energy: 19.2,
  total_solar_energy: 5087,
};

describe("encode is the inverse of decode", () => {
  it("the identity bank: detected model and serial", () => {
    const file = new RegisterFile();
    encodeIdentity(file, { deviceType: 0x2001, armFirmware: 193, serial: "SD2024G001" });
    const registers = new Registers(file);
    expect(detectModel({ controller: registers, addresses: new Set([0x11]) })).toMatchObject({
      model: "Hybrid Gen1",
      from: "identity",
    });
    expect(registers.holding.text(13, 5)).toBe("SD2024G001");
  });

  it("single-phase: hybrid Gen1 (with its battery totals), All-in-One, HV hybrid Gen3, AC-coupled", () => {
    // Today's consumption is no register: decoding balances it from today's counters,
    // 19.2 PV + 3.4 import + 2.2 discharge - 7.1 export - 4.5 charge (the AC-coupled has no PV counter, so none).
    const load = { today_consumption_energy: 13.2 };
    const gen1 = { ...single, ...arrays, total_battery_charge_energy: 2345.6, total_battery_discharge_energy: 2100.1 };
    const file = new RegisterFile();
    encodeSinglePhase(file, gen1, "Hybrid Gen1");
    expect(decodeSinglePhase(new Registers(file), "Hybrid Gen1")).toEqual({ ...gen1, ...load });

    const aio = { ...single, ...arrays };
    const aioFile = new RegisterFile();
    encodeSinglePhase(aioFile, aio, "All-in-One");
    expect(decodeSinglePhase(new Registers(aioFile), "All-in-One")).toEqual({ ...aio, ...load });

    const hvFile = new RegisterFile();
    encodeSinglePhase(hvFile, aio, "HV Hybrid Gen3");
    expect(decodeSinglePhase(new Registers(hvFile), "HV Hybrid Gen3")).toEqual({ ...aio, ...load });

    const acFile = new RegisterFile();
    encodeSinglePhase(acFile, { ...single, ...arrays }, "AC-coupled");
    expect(decodeSinglePhase(new Registers(acFile), "AC-coupled")).toEqual(single);
  });

  it("three-phase: grid and battery power in both directions", () => {
    const state: State = {
      ...arrays,
      status: "NORMAL",
      grid_voltage: 236.1,
      grid_current: 3.3,
      grid_frequency: 50.02,
      grid_power: -450.5,
      inverter_power: -1200,
      consumption_power: 650.3,
      battery_soc: 88,
      battery_power: 1500,
      inverter_temperature: 40.1,
      eps_power: 12,
      today_ac_charge_energy: 0.5,
      total_ac_charge_energy: 12.5,
      today_grid_import_energy: 1,
      total_grid_import_energy: 2,
      today_grid_export_energy: 3,
      total_grid_export_energy: 4,
      today_battery_discharge_energy: 5,
      total_battery_discharge_energy: 6,
      today_battery_charge_energy: 7,
      total_battery_charge_energy: 8,
      today_consumption_energy: 9,
      total_consumption_energy: 10,
    };
    const file = new RegisterFile();
    encodeThreePhase(file, state);
    expect(decodeThreePhase(new Registers(file))).toEqual(state);
    const exporting = new RegisterFile();
    encodeThreePhase(exporting, { ...state, grid_power: 300, battery_power: -800 });
    expect(decodeThreePhase(new Registers(exporting))).toMatchObject({ grid_power: 300, battery_power: -800 });
  });

  it("EMS: the rollup, its inverters' slots and its meters' slots", () => {
    const state: State = {
      status: "WARNING",
      battery_power: -2511,
      battery_energy_remaining: 9.876,
      grid_power: 120,
      generation_power: 2400,
      measured_load_power: 700,
      calculated_load_power: 690,
      inverter_1_power: -1500,
      inverter_1_soc: 40,
      inverter_1_temperature: 22.5,
      inverter_1_status: "ONLINE",
      inverter_2_power: -1011,
      inverter_2_soc: 60,
      inverter_2_temperature: 23,
      inverter_2_status: "OFFLINE",
      meter_1_power: 120,
      meter_1_status: "ONLINE",
      meter_1_type: "GRID",
      meter_3_power: -2400,
      meter_3_status: "OFFLINE",
      meter_3_type: "GENERATION",
    };
    const file = new RegisterFile();
    encodeEms(file, state, ["SE2024G101", "SE2024G102"]);
    expect(decodeEms(new Registers(file))).toEqual(state);
    // On the wire as the captured EMS keeps them: grid into the house positive, so exporting 120 W
    // reads -120 at IR 2089 and at the grid meter's slot; the generation meter's as measured.
    const wire = new Registers(file);
    expect([wire.s16(2089), wire.s16(2046), wire.s16(2048), wire.u16(2042)]).toEqual([-120, -120, -2400, 0b01_00_00]);
  });

  it("gateway: firmware, totals high word first, battery charge positive on the wire, AIO slots", () => {
    const state: State = {
      firmware: "GAAA0014",
      work_mode: "ON_GRID",
      grid_voltage: 240.2,
      grid_current: 4.1,
      solar_power: 2000,
      consumption_power: 900,
      battery_power: -1100,
      today_grid_import_energy: 1.5,
      today_solar_energy: 12.3,
      today_grid_export_energy: 0.4,
      today_battery_charge_energy: 5.5,
      today_battery_discharge_energy: 3.3,
      today_consumption_energy: 9.9,
      total_grid_import_energy: 12710.8,
      total_solar_energy: 5087,
      total_grid_export_energy: 100.1,
      total_battery_charge_energy: 8855.9,
      total_battery_discharge_energy: 8000.2,
      total_consumption_energy: 20000,
      aio_count: 2,
      aio_1_serial: "CH2024A001",
      aio_1_soc: 50,
      aio_1_power: -600,
      aio_2_serial: "CH2024A002",
      aio_2_soc: 61,
      aio_2_power: -500,
      battery_soc: 56,
    };
    const file = new RegisterFile();
    encodeGateway(file, state);
    expect(file.input.get(1702)).toBe(1100);
    expect(decodeGateway(new Registers(file))).toEqual(state);
  });

  it("an LV pack and an HV stack's BCU", () => {
    const pack: State = {
      soc: 64,
      voltage: 52.123,
      capacity: 183.21,
      design_capacity: 186,
      remaining_capacity: 117.25,
      cycle_count: 187,
      temperature: 18.5,
    };
    const file = new RegisterFile();
    encodeLvBattery(file, pack, "BM2024G0011");
    expect(decodeLvBattery(new Registers(file))).toEqual(pack);
    expect(lvBatterySerial(new Registers(file))).toBe("BM2024G001");

    const bcu: State = {
      modules: 4,
      voltage: 310.4,
      current: -12.5,
      soc: 71,
      state_of_health: 99,
      design_capacity: 52,
      remaining_capacity: 31.4,
      cycle_count: 120.5,
      total_battery_charge_energy: 3000.1,
      total_battery_discharge_energy: 2800.7,
    };
    const hv = new RegisterFile();
    encodeBcu(hv, bcu, "BC2024A001");
    expect(decodeBcu(new Registers(hv))).toEqual(bcu);
    expect(bcuSerial(new Registers(hv))).toBe("BC2024A001");
  });

  it("an HV module (BMU) and the BAMS's counts", () => {
    const file = new RegisterFile();
    encodeBmu(file, { cell_count: 24, voltage: 79.2, temperature: 21.5 }, "HX2024B001");
    expect(decodeBmu(new Registers(file))).toEqual({
      cell_count: 24,
      voltage: 79.2,
      cell_voltage_min: 3.3,
      cell_voltage_max: 3.3,
      temperature_min: 21.5,
      temperature_max: 21.5,
    });
    expect(bmuSerial(new Registers(file))).toBe("HX2024B001");

    const bams: State = { stacks: 1, modules: 4, cell_count: 96, temperature_sensors: 48 };
    const summary = new RegisterFile();
    encodeBamsSummary(summary, bams);
    expect(decodeBamsSummary(new Registers(summary))).toEqual(bams);
  });

  it("clamps what a register cannot hold instead of wrapping it", () => {
    const file = new RegisterFile();
    file.u16(0, 70_000).s16(1, -40_000).u16(2, -5);
    expect([file.input.get(0), file.input.get(1), file.input.get(2)]).toEqual([0xffff, 0x8000, 0]);
    expect(statusCode("Normal")).toBe(1);
    expect(statusCode("nonsense")).toBeUndefined();
  });
});

describe("the simulator's frames", () => {
  it("an error response parses as the function refused, its base and count", () => {
    const bytes = buildErrorResponse({
      dongleSerial: "WF2024D001",
      address: 0x11,
      function: 0x04,
      deviceSerial: "SD2024G001",
      base: 900,
      count: 60,
    });
    expect(bytes[25]).toBe(0x12);
    expect(parseFrame(bytes)).toEqual({
      kind: "error",
      dongleSerial: "WF2024D001",
      address: 0x11,
      function: 0x04,
      deviceSerial: "SD2024G001",
      base: 900,
      count: 60,
    });
  });

  it("a LAN broadcast parses as a broadcast, not register data", () => {
    const frame = parseFrame(buildBroadcast("WO0000G000", "192.168.1.50,255.255.255.0,192.168.1.1"));
    expect(frame).toEqual({
      kind: "broadcast",
      dongleSerial: "WO0000G000",
      text: "192.168.1.50,255.255.255.0,192.168.1.1",
    });
  });
});
