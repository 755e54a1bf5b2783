import { describe, expect, it } from "vitest";
import { EV_COMMANDS } from "../../../src/cloud/schemas/ev-commands.js";
import { presetValues } from "../../../src/cloud/schemas/inverter-control.js";
import { controlState, entitiesFor } from "../../../src/homeassistant/entities/index.js";
import { InverterControl } from "../../../src/simulator/inverter-control/index.js";
import { charger, inverter } from "./inventory.js";

/** A simulated Gen3 hybrid, changed from its factory state, read as the bridge would read it. */
function readInverter() {
  const control = new InverterControl({ serial: inverter.serial, flags: [], random: () => 0 });
  control.write(71, 20);
  control.write(265, 2);
  control.applyPreset("timed-charge", {
    enabled: true,
    slots: { 1: { start_time: "00:30", end_time: "04:30", percent_limit: 90 } },
  });
  control.applyPreset("pause-battery", { mode: 1, start_time: "16:00", end_time: "19:00" });
  const presets = Object.fromEntries(
    inverter.presets.flatMap((preset) => {
      const values = preset.identifier ? control.presetValues(preset.identifier) : undefined;
      return preset.identifier && values ? [[preset.identifier, presetValues.parse(values)]] : [];
    }),
  );
  return { settings: control.captureSettings(), presets };
}

describe("controlState", () => {
  it("gives the inverter's controls as read, under the entity keys", () => {
    const values = controlState(inverter, readInverter());
    expect(values).toMatchObject({
      eco_mode: "ON",
      timed_charge: "ON",
      timed_charge_slot_1_start_time: "00:30:00",
      timed_charge_slot_1_end_time: "04:30:00",
      timed_charge_slot_1_percent_limit: 90,
      timed_charge_slot_2_start_time: "00:00:00",
      timed_export: "OFF",
      pause_battery_mode: "Pause Charge",
      pause_battery_start_time: "16:00:00",
      battery_operating_range_reserve_percent: 20,
      generator_mode_start_soc: 20,
      setting_battery_reserve_percent_limit: 20,
      setting_export_power_priority: "Grid First",
      setting_ac_charge_1_start_time: "00:30:00",
      setting_ac_charge_enable: "ON",
      setting_pause_battery: "Pause Charge",
    });
  });

  it("gives every switch, number, select and time of the inverter a value when all was read", () => {
    const values = controlState(inverter, readInverter());
    const controls = entitiesFor(inverter).filter((entity) => entity.command && entity.component !== "button");
    expect(controls.filter((entity) => values[entity.key] === undefined || values[entity.key] === null)).toEqual([]);
    expect(Object.keys(values)).not.toContain("setting_restart_inverter");
  });

  it("leaves out what the source does not say, so a partial read blanks nothing", () => {
    expect(controlState(inverter, { settings: { 24: true } })).toEqual({ setting_enable_eco_mode: "ON" });
    expect(controlState(inverter, { presets: { "eco-mode": { enabled: false } } })).toEqual({ eco_mode: "OFF" });
  });

  it("reads slots given as a map keyed by slot number", () => {
    const values = controlState(inverter, {
      presets: { "timed-export": { enabled: true, slots: { 3: { start_time: "17:00:00", percent_limit: 40 } } } },
    });
    expect(values).toMatchObject({
      timed_export: "ON",
      timed_export_slot_3_start_time: "17:00:00",
      timed_export_slot_3_percent_limit: 40,
    });
  });

  it("gives the EV charger's controls from its command data", () => {
    const evCommands = {
      "change-mode": EV_COMMANDS["change-mode"].data.parse({ active: "Eco", available: ["Boost", "Eco", "SuperEco"] }),
      "set-plug-and-go": EV_COMMANDS["set-plug-and-go"].data.parse(1),
      "adjust-charge-power-limit": EV_COMMANDS["adjust-charge-power-limit"].data.parse({
        min: 6,
        max: 32,
        value: 16,
        unit: "A",
      }),
      "set-session-energy-limit": EV_COMMANDS["set-session-energy-limit"].data.parse({
        min: 0.1,
        max: 250,
        value: null,
        unit: "kWh",
      }),
      "enable-front-panel-led": { value: false },
    };
    expect(controlState(charger, { evCommands })).toEqual({
      mode: "Eco",
      plug_and_go: "ON",
      charge_power_limit: 16,
      session_energy_limit: 0,
      front_panel_led: "OFF",
    });
  });
});
