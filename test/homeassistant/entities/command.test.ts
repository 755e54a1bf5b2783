import { describe, expect, it } from "vitest";
import { type CommandResult, commandFor } from "../../../src/homeassistant/entities/index.js";
import { charger, ems, inverter } from "./inventory.js";

const refused = (result: CommandResult): string => {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result.message;
};

describe("commandFor: inverter settings", () => {
  it("turns ON and OFF into a boolean setting write", () => {
    expect(commandFor(inverter, "setting_enable_eps", "ON")).toEqual({
      ok: true,
      request: { kind: "setting", serial: "SD2024G001", settingId: 271, value: true },
    });
    expect(commandFor(inverter, "setting_enable_eps", "OFF")).toEqual({
      ok: true,
      request: { kind: "setting", serial: "SD2024G001", settingId: 271, value: false },
    });
    expect(refused(commandFor(inverter, "setting_enable_eps", "yes"))).toBe('Enable EPS must be ON or OFF; got "yes"');
  });

  it("reads a number and leaves its bounds to the device's rules; a payload that is not one names them", () => {
    expect(commandFor(inverter, "setting_battery_reserve_percent_limit", "20")).toEqual({
      ok: true,
      request: { kind: "setting", serial: "SD2024G001", settingId: 71, value: 20 },
    });
    // Out of bounds is the gate's to refuse (test/homeassistant/commands.test.ts), with one audit row.
    expect(commandFor(inverter, "setting_battery_reserve_percent_limit", "2")).toEqual({
      ok: true,
      request: { kind: "setting", serial: "SD2024G001", settingId: 71, value: 2 },
    });
    expect(refused(commandFor(inverter, "setting_battery_reserve_percent_limit", "20.5"))).toContain("from 4 to 100");
    expect(refused(commandFor(inverter, "setting_battery_charge_power", "abc"))).toContain("from 0 to 3600 W");
  });

  it("writes a time as HH:mm from HH:MM or HH:MM:SS and refuses a bad time", () => {
    expect(commandFor(inverter, "setting_ac_charge_1_start_time", "00:30:00")).toEqual({
      ok: true,
      request: { kind: "setting", serial: "SD2024G001", settingId: 64, value: "00:30" },
    });
    expect(commandFor(inverter, "setting_ac_charge_1_end_time", "04:30")).toMatchObject({
      request: { value: "04:30" },
    });
    expect(refused(commandFor(inverter, "setting_ac_charge_1_start_time", "24:00"))).toBe(
      'AC Charge 1 Start Time must be a time as HH:MM or HH:MM:SS; got "24:00"',
    );
    expect(refused(commandFor(inverter, "setting_ac_charge_1_start_time", "5:30"))).toContain("HH:MM");
  });

  it("writes a select's value by its label, and passes anything else on for the device's rules", () => {
    expect(commandFor(inverter, "setting_export_power_priority", "Battery First")).toEqual({
      ok: true,
      request: { kind: "setting", serial: "SD2024G001", settingId: 265, value: 1 },
    });
    expect(commandFor(inverter, "setting_export_power_priority", "2")).toMatchObject({ request: { value: 2 } });
    expect(commandFor(inverter, "setting_export_power_priority", "Solar First")).toMatchObject({
      request: { value: "Solar First" },
    });
    expect(refused(commandFor(inverter, "setting_export_power_priority", " "))).toBe(
      'Export Power Priority must be one of: Load First, Battery First, Grid First; got " "',
    );
  });

  it("presses a write-only setting's button with its one value", () => {
    expect(commandFor(inverter, "setting_restart_inverter", "PRESS")).toEqual({
      ok: true,
      request: { kind: "setting", serial: "SD2024G001", settingId: 83, value: 100 },
    });
    expect(refused(commandFor(inverter, "setting_restart_inverter", "ON"))).toContain("PRESS");
  });
});

describe("commandFor: presets", () => {
  it("switches a preset with {enabled}", () => {
    expect(commandFor(inverter, "eco_mode", "ON")).toEqual({
      ok: true,
      request: { kind: "preset", serial: "SD2024G001", preset: "eco-mode", fields: { enabled: true } },
    });
    expect(commandFor(inverter, "timed_export", "OFF")).toEqual({
      ok: true,
      request: { kind: "preset", serial: "SD2024G001", preset: "timed-export", fields: { enabled: false } },
    });
  });

  it("changes one field of one slot, keyed by the slot number", () => {
    expect(commandFor(inverter, "timed_charge_slot_2_start_time", "01:15:00")).toEqual({
      ok: true,
      request: {
        kind: "preset",
        serial: "SD2024G001",
        preset: "timed-charge",
        fields: { slots: { 2: { start_time: "01:15" } } },
      },
    });
    expect(commandFor(inverter, "timed_discharge_slot_1_percent_limit", "25")).toEqual({
      ok: true,
      request: {
        kind: "preset",
        serial: "SD2024G001",
        preset: "timed-discharge",
        fields: { slots: { 1: { percent_limit: 25 } } },
      },
    });
    expect(commandFor(inverter, "timed_discharge_slot_1_percent_limit", "3")).toMatchObject({
      request: { fields: { slots: { 1: { percent_limit: 3 } } } },
    });
    expect(refused(commandFor(inverter, "timed_discharge_slot_1_percent_limit", "3 %"))).toBe(
      'Timed Discharge slot 1 limit must be a whole number from 4 to 100 %; got "3 %"',
    );
  });

  it("sends the preset's required fields along, from its current values", () => {
    expect(refused(commandFor(inverter, "pause_battery_start_time", "22:00"))).toBe(
      "pause-battery needs mode with every change, and its current value is not known yet; try again after the next refresh",
    );
    const current = { presets: { "pause-battery": { mode: 2, start_time: "00:00", end_time: "00:00" } } };
    expect(commandFor(inverter, "pause_battery_start_time", "22:00", current)).toEqual({
      ok: true,
      request: {
        kind: "preset",
        serial: "SD2024G001",
        preset: "pause-battery",
        fields: { mode: 2, start_time: "22:00" },
      },
    });
    expect(commandFor(inverter, "pause_battery_mode", "Pause Discharge")).toMatchObject({
      request: { preset: "pause-battery", fields: { mode: 2 } },
    });
  });

  it("resets to defaults with no data", () => {
    expect(commandFor(inverter, "reset_to_defaults", "PRESS")).toEqual({
      ok: true,
      request: { kind: "preset", serial: "SD2024G001", preset: "reset-to-defaults", fields: {} },
    });
  });
});

describe("commandFor: EV charger", () => {
  const uuid = charger.uuid;

  it("starts, stops and restarts with no fields", () => {
    expect(commandFor(charger, "start_charge", "PRESS")).toEqual({
      ok: true,
      request: { kind: "ev-command", uuid, command: "start-charge", request: {} },
    });
    expect(commandFor(charger, "stop_charge", "PRESS")).toMatchObject({ request: { command: "stop-charge" } });
    expect(commandFor(charger, "restart", "PRESS")).toMatchObject({
      request: { command: "restart-charger", request: {} },
    });
  });

  it("changes the mode; whether the charger offers it is the gate's to check", () => {
    expect(commandFor(charger, "mode", "Boost")).toEqual({
      ok: true,
      request: { kind: "ev-command", uuid, command: "change-mode", request: { mode: "Boost" } },
    });
    expect(commandFor(charger, "mode", "Eco", undefined, { evModes: ["Boost"] })).toMatchObject({
      request: { command: "change-mode", request: { mode: "Eco" } },
    });
  });

  it("sets limits, leaving the bounds to the gate; a session energy limit of 0 removes it", () => {
    expect(commandFor(charger, "charge_power_limit", "16")).toMatchObject({
      request: { command: "adjust-charge-power-limit", request: { limit: 16 } },
    });
    expect(commandFor(charger, "charge_power_limit", "40")).toMatchObject({ request: { request: { limit: 40 } } });
    expect(refused(commandFor(charger, "charge_power_limit", "forty"))).toBe(
      'Charge current limit must be a whole number from 6 to 32 A; got "forty"',
    );
    expect(commandFor(charger, "session_energy_limit", "12.5")).toMatchObject({
      request: { command: "set-session-energy-limit", request: { limit: 12.5 } },
    });
    expect(commandFor(charger, "session_energy_limit", "0")).toMatchObject({
      request: { command: "set-session-energy-limit", request: {} },
    });
  });

  it("switches plug and go and the front panel LED", () => {
    expect(commandFor(charger, "plug_and_go", "ON")).toMatchObject({
      request: { command: "set-plug-and-go", request: { enabled: true } },
    });
    expect(commandFor(charger, "front_panel_led", "OFF")).toMatchObject({
      request: { command: "enable-front-panel-led", request: { value: false } },
    });
  });
});

describe("commandFor: what is not a control", () => {
  it("refuses an unknown key, naming the controls there are", () => {
    const message = refused(commandFor(charger, "turbo", "ON"));
    expect(message).toMatch(/^EV charger Driveway has no control "turbo"; its controls are start_charge, stop_charge/);
    expect(refused(commandFor(inverter, "warp_drive", "ON"))).toMatch(/ and \d+ more$/);
    // An EMS the cloud alone reaches: no clock drift read, so no Sync clock either.
    expect(refused(commandFor(ems, "eco_mode", "ON", undefined, { seenKeys: [] }))).toBe(
      'EMS EM2024E001 has no controls; "eco_mode" cannot be set',
    );
  });

  it("refuses a sensor", () => {
    expect(refused(commandFor(inverter, "battery_soc", "50"))).toBe("Battery level is a sensor; it cannot be set");
  });
});

describe("commandFor: Sync clock", () => {
  it("asks for the device's clock to be set once the LAN has read its drift", () => {
    expect(commandFor(inverter, "sync_clock", "PRESS", undefined, { seenKeys: ["clock_drift"] })).toEqual({
      ok: true,
      clockSync: { serial: inverter.serial },
    });
    expect(commandFor(ems, "sync_clock", "PRESS", undefined, { seenKeys: ["clock_drift"] })).toEqual({
      ok: true,
      clockSync: { serial: ems.serial },
    });
  });

  it("is no control of a device whose clock the daemon has not read, and wants PRESS", () => {
    expect(refused(commandFor(inverter, "sync_clock", "PRESS", undefined, { seenKeys: ["battery_soc"] }))).toMatch(
      /has no control "sync_clock"/,
    );
    expect(refused(commandFor(inverter, "sync_clock", "now", undefined, { seenKeys: ["clock_drift"] }))).toBe(
      'Sync clock must be pressed (payload PRESS); got "now"',
    );
  });
});
