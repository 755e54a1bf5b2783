import { describe, expect, it } from "vitest";
import { EV_OPERATING_MODES } from "../../../src/cloud/schemas/ev-charger.js";
import { type EntityDef, entitiesFor, findEntity } from "../../../src/homeassistant/entities/index.js";
import type { Device } from "../../../src/sources/index.js";
import { charger, ems, emsChild, inverter, PRESET_LIST, smart } from "./inventory.js";
import { sensorProblems } from "./rules.js";

const DEVICES: readonly Device[] = [inverter, emsChild, ems, charger, smart];
const byKey = (device: Device, key: string): EntityDef => {
  const entity = findEntity(device, key);
  if (!entity) throw new Error(`no entity ${key}`);
  return entity;
};

describe("entitiesFor: sensors", () => {
  it("checks against rules that do refuse what Home Assistant refuses", () => {
    expect(sensorProblems({ device_class: "energy", unit: "kWh", state_class: "measurement" })).toEqual([
      "state_class measurement not one of total, total_increasing",
    ]);
    expect(sensorProblems({ device_class: "power", unit: "kWh", state_class: "measurement" })).toHaveLength(1);
    expect(sensorProblems({ device_class: "enum", unit: "%" })).toEqual(["unit % not allowed"]);
    expect(sensorProblems({ unit: "Ah", state_class: "measurement" })).toEqual([]);
  });

  it.each(DEVICES.map((device) => [device.kind, device] as const))(
    "every %s sensor complies with Home Assistant's device class rules",
    (_kind, device) => {
      const sensors = entitiesFor(device).filter((entity) => entity.component === "sensor");
      expect(sensors.length).toBeGreaterThan(0);
      const problems = sensors.flatMap((sensor) =>
        sensorProblems(sensor).map((problem) => `${sensor.key}: ${problem}`),
      );
      expect(problems).toEqual([]);
    },
  );

  it("makes every energy sensor a kWh total_increasing counter", () => {
    const energy = DEVICES.flatMap((device) => entitiesFor(device)).filter((e) => e.device_class === "energy");
    expect(energy.filter((e) => e.component === "sensor").length).toBeGreaterThanOrEqual(16);
    for (const sensor of energy.filter((e) => e.component === "sensor")) {
      expect([sensor.key, sensor.unit, sensor.state_class]).toEqual([sensor.key, "kWh", "total_increasing"]);
    }
  });

  it("gives enum sensors options and neither unit nor state class", () => {
    const enums = DEVICES.flatMap((device) => entitiesFor(device)).filter((e) => e.device_class === "enum");
    expect(enums.length).toBeGreaterThan(0);
    for (const sensor of enums) {
      expect(sensor.options?.length).toBeGreaterThan(0);
      expect(sensor.unit).toBeUndefined();
      expect(sensor.state_class).toBeUndefined();
    }
  });

  it("keeps keys snake_case and unique within each device", () => {
    for (const device of DEVICES) {
      const keys = entitiesFor(device).map((entity) => entity.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const key of keys) expect(key).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
    }
  });

  it("lists the inverter's live values, counters, faults and battery modules", () => {
    const keys = entitiesFor(inverter).map((entity) => entity.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        "solar_power",
        "solar_array_2_voltage",
        "grid_power",
        "battery_soc",
        "consumption_power",
        "today_grid_import_energy",
        "total_battery_discharge_energy",
        "fault",
        "latest_fault",
        "battery_1_capacity",
        "battery_1_cycle_count",
      ]),
    );
    expect(byKey(inverter, "fault")).toMatchObject({ component: "binary_sensor", device_class: "problem" });
  });

  it("gives an AC-coupled inverter no solar arrays, unless its live data shows some", () => {
    expect(entitiesFor(emsChild).some((entity) => entity.key.startsWith("solar_array_"))).toBe(false);
    const three = entitiesFor(inverter, { solarArrays: 3 }).map((entity) => entity.key);
    expect(three).toContain("solar_array_3_power");
  });

  it("lists EMS plant values, per inverter and per meter", () => {
    const keys = entitiesFor(ems).map((entity) => entity.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        "status",
        "grid_power",
        "battery_energy_remaining",
        "inverter_1_soc",
        "inverter_2_status",
      ]),
    );
    expect(keys).toContain("meter_2_power");
    expect(entitiesFor(ems, { emsMeters: 3 }).map((entity) => entity.key)).toContain("meter_3_type");
    expect(byKey(ems, "inverter_1_soc")).toMatchObject({ device_class: "battery", unit: "%" });
  });

  it("lists the EV charger's status as an enum of the OCPP statuses", () => {
    expect(byKey(charger, "status")).toMatchObject({
      device_class: "enum",
      options: [
        "Available",
        "Preparing",
        "Charging",
        "SuspendedEVSE",
        "SuspendedEV",
        "Finishing",
        "Reserved",
        "Unavailable",
        "Faulted",
      ],
    });
    expect(byKey(charger, "energy")).toMatchObject({
      device_class: "energy",
      unit: "kWh",
      state_class: "total_increasing",
    });
    expect(byKey(smart, "power")).toMatchObject({ device_class: "power", unit: "W", state_class: "measurement" });
  });
});

describe("entitiesFor: inverter controls", () => {
  it("makes a control for every preset field the listing shows", () => {
    expect(byKey(inverter, "eco_mode")).toMatchObject({
      component: "switch",
      command: { target: { kind: "preset", preset: "eco-mode", field: "enabled", alsoRequired: [] } },
    });
    expect(byKey(inverter, "timed_charge")).toMatchObject({ component: "switch" });
    expect(byKey(inverter, "timed_charge_slot_10_start_time")).toMatchObject({
      component: "time",
      command: { target: { kind: "preset", preset: "timed-charge", field: "start_time", slot: 10 } },
    });
    expect(byKey(inverter, "timed_discharge_slot_1_percent_limit")).toMatchObject({
      component: "number",
      min: 4,
      max: 100,
      step: 1,
      unit: "%",
    });
    expect(byKey(inverter, "timed_export_max_power_watts")).toMatchObject({
      component: "number",
      min: 0,
      max: 3600,
      unit: "W",
    });
    expect(byKey(inverter, "battery_operating_range_reserve_percent")).toMatchObject({ min: 4, max: 100 });
    expect(byKey(inverter, "pause_battery_mode")).toMatchObject({
      component: "select",
      options: ["Not Paused", "Pause Charge", "Pause Discharge", "Pause Charge and Discharge"],
      command: { optionValues: [0, 1, 2, 3], target: { alsoRequired: [] } },
    });
    expect(byKey(inverter, "pause_battery_start_time")).toMatchObject({
      component: "time",
      command: { target: { alsoRequired: ["mode"] } },
    });
    expect(byKey(inverter, "winter_battery_conditioning")).toMatchObject({ component: "switch" });
    expect(byKey(inverter, "generator_mode_start_soc")).toMatchObject({
      component: "number",
      command: { target: { alsoRequired: ["enabled"] } },
    });
    expect(byKey(inverter, "reset_to_defaults")).toMatchObject({ component: "button", enabled_by_default: false });
    expect(findEntity(inverter, "smart_load")).toBeUndefined();
  });

  it("derives setting controls from their validation rules", () => {
    expect(byKey(inverter, "setting_enable_eps")).toMatchObject({
      component: "switch",
      name: "Enable EPS",
      entity_category: "config",
      command: { target: { kind: "setting", settingId: 271 }, rules: ["boolean"] },
    });
    expect(byKey(inverter, "setting_battery_reserve_percent_limit")).toMatchObject({
      component: "number",
      min: 4,
      max: 100,
      step: 1,
      unit: "%",
    });
    expect(byKey(inverter, "setting_battery_charge_power")).toMatchObject({
      min: 0,
      max: 3600,
      unit: "W",
      device_class: "power",
    });
    expect(byKey(inverter, "setting_ac_charge_1_start_time")).toMatchObject({ component: "time" });
    expect(byKey(inverter, "setting_export_power_priority")).toMatchObject({
      component: "select",
      options: ["Load First", "Battery First", "Grid First"],
      command: { optionValues: [0, 1, 2] },
    });
    expect(byKey(inverter, "setting_restart_inverter")).toMatchObject({
      component: "button",
      device_class: "restart",
      command: { pressValue: 100 },
    });
  });

  it("starts the settings the presets already control disabled, and only then", () => {
    expect(byKey(inverter, "setting_enable_eco_mode").enabled_by_default).toBe(false);
    expect(byKey(inverter, "setting_dc_discharge_10_end_time").enabled_by_default).toBe(false);
    expect(byKey(inverter, "setting_enable_eps").enabled_by_default).toBeUndefined();
    const bare = { ...inverter, presets: [] };
    expect(findEntity(bare, "setting_enable_eco_mode")?.enabled_by_default).toBeUndefined();
    expect(findEntity(bare, "eco_mode")).toBeUndefined();
  });

  it("finds presets of an older listing by their legacy ID", () => {
    const legacy = PRESET_LIST.map(({ identifier: _identifier, ...preset }) => preset);
    expect(findEntity({ ...inverter, presets: legacy }, "timed_export")).toMatchObject({
      command: { target: { preset: "timed-export" } },
    });
  });

  it("gives an inverter of an EMS plant no controls but its clock's: the EMS controls the rest", () => {
    // Its clock is its own (the daemon's clock watch sets it too), so Sync clock is the one command.
    const commands = entitiesFor(emsChild).filter((entity) => entity.command);
    expect(commands.map((entity) => entity.key)).toEqual(["sync_clock"]);
  });
});

describe("entitiesFor: EV charger controls", () => {
  it("makes controls from the supported commands", () => {
    const controls = entitiesFor(charger).filter((entity) => entity.command);
    expect(controls.map((entity) => [entity.key, entity.component])).toEqual([
      ["start_charge", "button"],
      ["stop_charge", "button"],
      ["charge_power_limit", "number"],
      ["plug_and_go", "switch"],
      ["session_energy_limit", "number"],
      ["unlock_connector", "button"],
      ["mode", "select"],
      ["restart", "button"],
      ["randomised_delay", "number"],
      ["max_import_capacity", "number"],
      ["front_panel_led", "switch"],
    ]);
    expect(byKey(charger, "charge_power_limit")).toMatchObject({ min: 6, max: 32, unit: "A" });
    expect(byKey(charger, "mode").options).toEqual(EV_OPERATING_MODES);
  });

  it("offers only the modes the charger has, once known, and only the commands it supports", () => {
    const limited = { ...charger, commands: ["start-charge", "change-mode"] as const };
    const entities = entitiesFor({ ...limited, commands: [...limited.commands] }, { evModes: ["Boost", "Eco"] });
    expect(entities.filter((entity) => entity.command).map((entity) => entity.key)).toEqual(["start_charge", "mode"]);
    expect(entities.find((entity) => entity.key === "mode")?.options).toEqual(["Boost", "Eco"]);
  });
});
