import type { ControlValues } from "../control/index.js";
import type { InverterDevice } from "../telemetry/index.js";
import { round, type StateValues } from "../vocabulary/index.js";
import { HELD_TARGET, isOn, modeOf, PAUSE_MODES, PRESET, presetOf, slotOf, timeOf } from "./control-words.js";

/** What readData is made of: the inverter, its last live reading and its control values. */
export interface ReadDataInput {
  readonly inverter: InverterDevice;
  readonly live: StateValues | undefined;
  readonly controls: ControlValues;
  readonly version: string;
}

const enable = (on: boolean): "enable" | "disable" => (on ? "enable" : "disable");
const numberOr = (value: unknown, fallback: number): number => {
  const number = Number(value);
  return value === null || value === undefined || Number.isNaN(number) ? fallback : number;
};

/**
 * GivTCP's readData as Predbat reads it (its GivTCP client: Control, Timeslots, Power.Power,
 * Invertor_Details and the v3 block under the serial, Battery_Details, raw.invertor, Stats), in
 * GivTCP's field names and value formats: "enable"/"disable", times as "HH:MM:SS", powers in W
 * with battery discharge and grid export positive, energy in kWh. A value not known yet is left
 * out, never made up, but for the times and switches Predbat cannot do without (then "00:00:00"
 * and "disable", what GivTCP shows for a slot or switch that is off).
 */
export function readDataOf(input: ReadDataInput): Record<string, unknown> {
  const { inverter, controls } = input;
  const live = input.live ?? {};
  const charge = presetOf(controls, PRESET.charge);
  const exporting = presetOf(controls, PRESET.export);
  const demand = presetOf(controls, PRESET.demand);
  const range = presetOf(controls, PRESET.range);
  const pause = presetOf(controls, PRESET.pause);
  // The two discharge presets share the DC discharge slots; either one on is GivTCP's discharge schedule.
  const discharge = isOn(exporting.enabled) ? exporting : demand;
  const capacity = inverter.batteryCapacityKwh;
  const soc = live.battery_soc;
  const details = {
    Invertor_Serial_Number: inverter.serial,
    Invertor_Type: inverter.model,
    ...(capacity === undefined ? {} : { Battery_Capacity_kWh: capacity }),
  };
  const chargeSlot = slotOf(charge, 1);
  const dischargeSlot = slotOf(discharge, 1);
  return {
    Control: {
      Mode: modeOf(controls),
      ...(range.reserve_percent == null ? {} : { Battery_Power_Reserve: numberOr(range.reserve_percent, 0) }),
      ...(range.cutoff_percent == null ? {} : { Battery_Power_Cutoff: numberOr(range.cutoff_percent, 0) }),
      ...(chargeSlot.percent_limit == null ? {} : { Target_SOC: numberOr(chargeSlot.percent_limit, 100) }),
      // The slot's limit always stops the charge: there is no separate switch for it.
      Enable_Charge_Target: "enable",
      Enable_Charge_Schedule: enable(isOn(charge.enabled)),
      Enable_Discharge_Schedule: enable(isOn(exporting.enabled) || isOn(demand.enabled)),
      ...(range.max_charge_watts == null ? {} : { Battery_Charge_Rate: numberOr(range.max_charge_watts, 0) }),
      ...(range.max_discharge_watts == null ? {} : { Battery_Discharge_Rate: numberOr(range.max_discharge_watts, 0) }),
      ...(dischargeSlot.percent_limit == null
        ? exporting[HELD_TARGET] == null
          ? {}
          : { Discharge_Target_SOC_1: numberOr(exporting[HELD_TARGET], 0) }
        : { Discharge_Target_SOC_1: numberOr(dischargeSlot.percent_limit, 0) }),
      Battery_pause_mode: PAUSE_MODES[numberOr(pause.mode, 0)] ?? "Disabled",
      Battery_Calibration: live.calibrating === "ON" || live.calibrating === true ? "Running" : "Off",
    },
    Timeslots: {
      Charge_start_time_slot_1: timeOf(chargeSlot.start_time),
      Charge_end_time_slot_1: timeOf(chargeSlot.end_time),
      Discharge_start_time_slot_1: timeOf(dischargeSlot.start_time),
      Discharge_end_time_slot_1: timeOf(dischargeSlot.end_time),
      Battery_pause_start_time_slot: timeOf(pause.start_time),
      Battery_pause_end_time_slot: timeOf(pause.end_time),
    },
    Power: { Power: powerOf(live, capacity) },
    Invertor_Details: details,
    [inverter.serial]: details,
    Battery_Details: batteryDetails(inverter, live),
    raw: {
      invertor: {
        serial_number: inverter.serial,
        model: inverter.model,
        firmware_version: String(inverter.firmware.arm ?? "Unknown"),
        ...(capacity === undefined ? {} : { battery_nominal_capacity: capacity }),
        ...(typeof soc === "number" ? { battery_percent: soc } : {}),
      },
    },
    // Predbat takes a version starting with 3 as GivTCP 3 (the v3 shapes above, pause support).
    Stats: { GivTCP_Version: `3.0 (energy2mqtt ${input.version})` },
  };
}

function powerOf(live: StateValues, capacity: number | undefined): Record<string, number> {
  const power: Record<string, number> = {};
  const put = (name: string, value: unknown): void => {
    if (typeof value === "number") power[name] = value;
  };
  put("Battery_Power", live.battery_power);
  put("PV_Power", live.solar_power);
  put("Grid_Power", live.grid_power);
  put("Load_Power", live.consumption_power);
  put("SOC", live.battery_soc);
  if (typeof live.battery_soc === "number" && capacity !== undefined)
    power.SOC_kWh = round((live.battery_soc * capacity) / 100, 3);
  return power;
}

function batteryDetails(inverter: InverterDevice, live: StateValues): Record<string, Record<string, unknown>> {
  const temperature = typeof live.battery_temperature === "number" ? live.battery_temperature : undefined;
  return Object.fromEntries(
    inverter.batteries.map((module, index) => [
      module.serial || `battery_${index + 1}`,
      {
        ...(temperature === undefined ? {} : { Battery_Temperature: temperature }),
        ...(typeof module.capacity?.full === "number" ? { Battery_Capacity: module.capacity.full } : {}),
        ...(typeof module.capacity?.design === "number" ? { Battery_Design_Capacity: module.capacity.design } : {}),
      },
    ]),
  );
}
