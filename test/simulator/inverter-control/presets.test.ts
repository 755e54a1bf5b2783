import { describe, expect, it } from "vitest";
import { PRESETS, presetDescriptor, presetValues, slots } from "../../../src/cloud/schemas/inverter-control.js";
import { AC_CHARGE_SLOTS, DC_DISCHARGE_SLOTS } from "../../../src/simulator/inverter-control/index.js";
import { FULL_POWER, inverter, recordWrites } from "./helpers.js";

const ok = { kind: "ok", success: true };

describe("preset descriptors", () => {
  it("lists the 13 presets of the reference in the client's wire shape", () => {
    const list = inverter().presetsList();
    expect(list.map((preset) => [preset.identifier, preset.id])).toEqual(Object.entries(PRESETS));
    for (const preset of list) expect(presetDescriptor.safeParse(preset).success, preset.identifier ?? "").toBe(true);
  });

  it("takes the parameters' rules from the settings they map onto", () => {
    const byId = Object.fromEntries(
      inverter()
        .presetsList()
        .map((preset) => [preset.identifier, preset.parameters]),
    );
    expect(byId["timed-charge"]?.["slots.*.start_time"]?.validation).toEqual(["optional", "date_format:H:i"]);
    expect(byId["timed-charge"]?.["slots.*.percent_limit"]?.validation).toEqual([
      "optional",
      "integer",
      "between:0,100",
    ]);
    expect(byId["timed-discharge"]?.["slots.*.percent_limit"]?.validation).toEqual([
      "optional",
      "integer",
      "between:4,100",
    ]);
    expect(byId["battery-operating-range"]?.reserve_percent?.validation).toEqual([
      "optional",
      "integer",
      "between:4,100",
    ]);
    expect(byId["pause-battery"]?.mode?.validation).toEqual(["required", "integer", "in:0,1,2,3"]);
    expect(byId["reset-to-defaults"]).toEqual({});
    expect(byId["smart-load"]).toEqual({});
  });

  it("answers values in the shape of the parameters, readable by the client", () => {
    const control = inverter();
    expect(control.presetValues("eco-mode")).toEqual({ enabled: true });
    expect(control.presetValues("0")).toEqual({ enabled: true });
    expect(control.presetValues("nope")).toBeUndefined();
    const charge = presetValues.parse(control.presetValues("timed-charge"));
    expect(Object.keys(slots.parse(charge.slots))).toHaveLength(10);
    expect(control.presetValues("battery-operating-range")).toEqual({
      reserve_percent: 4,
      cutoff_percent: 4,
      max_charge_watts: 3600,
      max_discharge_watts: 3600,
    });
    expect(control.presetValues("pause-battery")).toEqual({ mode: 0, start_time: "00:00", end_time: "00:00" });
    expect(control.presetValues("generator-mode")).toEqual({
      enabled: false,
      start_soc: 20,
      stop_soc: 80,
      charge_power_percent: 100,
    });
  });
});

describe("applying presets", () => {
  it("answers unknown for a preset it does not have", () => {
    expect(inverter().applyPreset("turbo-mode", {})).toEqual({ kind: "unknown" });
    expect(inverter().applyPreset("99", {})).toEqual({ kind: "unknown" });
  });

  it("timed-charge writes 66, slot 1 as 64/65/101 and slot 2 as its triplet", () => {
    const control = inverter();
    const writes = recordWrites(control);
    const result = control.applyPreset("timed-charge", {
      enabled: true,
      slots: [
        { start_time: "00:30", end_time: "04:30", percent_limit: 90 },
        { start_time: "13:00", end_time: "15:00", percent_limit: 60 },
      ],
    });
    expect(result).toMatchObject(ok);
    expect(new Map(writes)).toEqual(
      new Map<number, unknown>([
        [64, "00:30"],
        [65, "04:30"],
        [101, 90],
        [102, "13:00"],
        [103, "15:00"],
        [104, 60],
        [66, true],
      ]),
    );
    // The switch goes on once the slots are in place.
    expect(writes.at(-1)).toEqual([66, true]);
  });

  it("accepts the legacy ID in place of the identifier", () => {
    const control = inverter();
    expect(control.applyPreset("1", { enabled: true })).toMatchObject(ok);
    expect(control.get(66)).toBe(true);
  });

  it("object-keyed slots change only the slots and fields given", () => {
    const control = inverter();
    control.applyPreset("timed-charge", {
      slots: [
        { start_time: "00:30", end_time: "04:30", percent_limit: 90 },
        { start_time: "13:00", end_time: "15:00", percent_limit: 60 },
      ],
    });
    const writes = recordWrites(control);
    expect(control.applyPreset("timed-charge", { slots: { 2: { start_time: "12:00" } } })).toMatchObject(ok);
    expect(writes).toEqual([[102, "12:00"]]);
    expect([64, 65, 101, 102, 103, 104, 66].map((id) => control.get(id))).toEqual([
      "00:30",
      "04:30",
      90,
      "12:00",
      "15:00",
      60,
      false,
    ]);
  });

  it("enabled false switches the preset off and disables all its slots", () => {
    const control = inverter();
    control.applyPreset("timed-charge", {
      enabled: true,
      slots: { 1: { start_time: "00:30", end_time: "04:30" }, 10: { start_time: "20:00", end_time: "21:00" } },
    });
    expect(control.applyPreset("timed-charge", { enabled: false })).toMatchObject(ok);
    expect(control.get(66)).toBe(false);
    for (const slot of AC_CHARGE_SLOTS)
      expect([control.get(slot.start), control.get(slot.end)]).toEqual(["00:00", "00:00"]);
    expect(control.presetValues("timed-charge")?.enabled).toBe(false);
  });

  it("timed-discharge writes 56, the DC slots (2 is 41/42/130) and 73, with Eco mode on", () => {
    const control = inverter();
    control.write(24, false);
    const result = control.applyPreset("timed-discharge", {
      enabled: true,
      max_power_watts: 2000,
      slots: {
        1: { start_time: "16:00", end_time: "19:00", percent_limit: 20 },
        2: { start_time: "20:00", end_time: "21:00" },
        3: { end_time: "23:00" },
      },
    });
    expect(result).toMatchObject(ok);
    expect([53, 54, 129, 41, 42, 132, 73, 24, 56].map((id) => control.get(id))).toEqual([
      "16:00",
      "19:00",
      20,
      "20:00",
      "21:00",
      "23:00",
      2000,
      true,
      true,
    ]);
    expect(DC_DISCHARGE_SLOTS[2]).toEqual({ start: 131, end: 132, limit: 133 });
    expect(control.presetValues("timed-discharge")?.enabled).toBe(true);
    expect(control.presetValues("timed-export")?.enabled).toBe(false);
  });

  it("timed-export turns Eco mode off on an inverter without the full-power flag", () => {
    const control = inverter();
    expect(
      control.applyPreset("timed-export", { enabled: true, slots: [{ start_time: "17:00", end_time: "18:00" }] }),
    ).toMatchObject(ok);
    expect([control.get(56), control.get(24)]).toEqual([true, false]);
    expect(control.presetValues("eco-mode")).toEqual({ enabled: false });
    expect(control.presetValues("timed-export")?.enabled).toBe(true);
    expect(control.presetValues("timed-discharge")?.enabled).toBe(false);
  });

  it("timed-export leaves Eco mode on an inverter with the flag", () => {
    const control = inverter({ flags: [FULL_POWER] });
    expect(control.applyPreset("timed-export", { enabled: true })).toMatchObject(ok);
    expect([control.get(56), control.get(24)]).toEqual([true, true]);
    expect(control.presetValues("timed-export")?.enabled).toBe(true);
    expect(control.presetValues("timed-discharge")?.enabled).toBe(false);
    control.applyPreset("timed-discharge", { enabled: true });
    expect(control.presetValues("timed-export")?.enabled).toBe(false);
    expect(control.presetValues("timed-discharge")?.enabled).toBe(true);
  });

  it("pause-battery writes 96, 155 and 156", () => {
    const control = inverter();
    const writes = recordWrites(control);
    expect(control.applyPreset("pause-battery", { mode: 3, start_time: "16:00", end_time: "19:00" })).toMatchObject(ok);
    expect(writes).toEqual([
      [96, 3],
      [155, "16:00"],
      [156, "19:00"],
    ]);
    expect(control.applyPreset("pause-battery", { mode: 4 })).toEqual({
      kind: "invalid",
      errors: { mode: ["mode must be one of 0, 1, 2, 3"] },
    });
  });

  it("battery-operating-range writes 71/75/72/73 and refuses a reserve below 4%", () => {
    const control = inverter();
    expect(
      control.applyPreset("battery-operating-range", {
        reserve_percent: 20,
        cutoff_percent: 10,
        max_charge_watts: 2500,
        max_discharge_watts: 3000,
      }),
    ).toMatchObject(ok);
    expect([71, 75, 72, 73].map((id) => control.get(id))).toEqual([20, 10, 2500, 3000]);
    const writes = recordWrites(control);
    expect(control.applyPreset("battery-operating-range", { reserve_percent: 3 })).toEqual({
      kind: "invalid",
      errors: { reserve_percent: ["reserve_percent must be between 4 and 100"] },
    });
    expect(writes).toEqual([]);
    expect(control.get(71)).toBe(20);
  });

  it("refuses bad slots by their path, writing nothing", () => {
    const control = inverter();
    const writes = recordWrites(control);
    expect(
      control.applyPreset("timed-charge", {
        enabled: "true",
        slots: { 2: { start_time: "5:30", percent_limit: 101 }, 11: { end_time: "06:00" } },
      }),
    ).toEqual({
      kind: "invalid",
      errors: {
        enabled: ["enabled must be true or false"],
        "slots.2.start_time": ["slots.2.start_time must be a time as HH:mm"],
        "slots.2.percent_limit": ["slots.2.percent_limit must be between 0 and 100"],
        slots: ["slots must be keyed by slot numbers from 1 to 10; 11 is not one"],
      },
    });
    expect(control.applyPreset("timed-charge", { slots: Array(11).fill({}) })).toMatchObject({
      kind: "invalid",
      errors: { slots: ["slots must have at most 10 items"] },
    });
    expect(control.applyPreset("eco-mode", {})).toEqual({
      kind: "invalid",
      errors: { enabled: ["enabled is required"] },
    });
    expect(control.applyPreset("eco-mode", { enabled: true, force: "yes" }).kind).toBe("invalid");
    expect(writes).toEqual([]);
  });

  it("force false writes only the settings that differ; force true and no force write them all", () => {
    const control = inverter();
    const body = { reserve_percent: 4, cutoff_percent: 10 };
    let writes = recordWrites(control);
    control.applyPreset("battery-operating-range", { ...body, force: false });
    expect(writes).toEqual([[75, 10]]);
    writes = recordWrites(control);
    control.applyPreset("battery-operating-range", { ...body, force: false });
    expect(writes).toEqual([]);
    writes = recordWrites(control);
    control.applyPreset("battery-operating-range", { ...body, force: true });
    expect(writes).toEqual([
      [71, 4],
      [75, 10],
    ]);
    writes = recordWrites(control);
    control.applyPreset("battery-operating-range", body);
    expect(writes).toHaveLength(2);
  });

  it("answers success false, changing nothing, when the inverter is offline or locked", () => {
    const control = inverter();
    const writes = recordWrites(control);
    control.conditions.offline = true;
    expect(control.applyPreset("eco-mode", { enabled: false })).toEqual({
      kind: "ok",
      success: false,
      message: "Inverter Offline",
    });
    control.conditions.offline = false;
    control.conditions.locked = true;
    expect(control.applyPreset("winter-battery-conditioning", { enabled: true })).toEqual({
      kind: "ok",
      success: false,
      message: "Inverter Locked",
    });
    expect(writes).toEqual([]);
    expect(control.presetValues("winter-battery-conditioning")).toEqual({ enabled: false });
  });

  it("a timeout during a preset stops there and reports failure", () => {
    const control = inverter();
    control.injectTimeouts(1);
    const result = control.applyPreset("pause-battery", { mode: 1, start_time: "10:00" });
    expect(result).toMatchObject({ kind: "ok", success: false });
    expect(result.kind === "ok" && result.message).toContain("Pause Battery");
    expect(control.get(155)).toBe("00:00");
  });

  it("keeps the state of presets that have no setting", () => {
    const control = inverter();
    expect(
      control.applyPreset("grid-settings", { export_limit_enabled: true, export_limit_watts: 1500 }),
    ).toMatchObject(ok);
    expect(control.presetValues("grid-settings")).toEqual({ export_limit_enabled: true, export_limit_watts: 1500 });
    expect(control.applyPreset("generator-mode", { enabled: true, stop_soc: 90 })).toMatchObject(ok);
    expect(control.presetValues("generator-mode")).toMatchObject({ enabled: true, start_soc: 20, stop_soc: 90 });
    expect(control.applyPreset("smart-load", { enabled: 1 })).toMatchObject(ok);
    expect(control.presetValues("smart-load")).toEqual({ enabled: true });
    expect(control.applyPreset("smart-load", { enabled: "on" }).kind).toBe("invalid");
    expect(control.applyPreset("generator-mode", { enabled: true, start_soc: 2 }).kind).toBe("invalid");
  });

  it("reset-to-defaults puts every setting and preset back to the factory's", () => {
    const control = inverter();
    const factory = control.captureSettings();
    control.applyPreset("timed-export", { enabled: true, slots: [{ start_time: "17:00", end_time: "18:00" }] });
    control.applyPreset("battery-operating-range", { reserve_percent: 50 });
    control.applyPreset("winter-battery-conditioning", { enabled: true });
    control.write(504, true);
    expect(control.applyPreset("reset-to-defaults", { context: "test" })).toMatchObject(ok);
    expect(control.captureSettings()).toEqual(factory);
    expect(control.presetValues("winter-battery-conditioning")).toEqual({ enabled: false });
    expect(control.presetValues("eco-mode")).toEqual({ enabled: true });
  });

  it("captures a preset and applies it back, as preset profiles do", () => {
    const control = inverter();
    control.applyPreset("timed-charge", {
      enabled: true,
      slots: [{ start_time: "01:00", end_time: "05:00", percent_limit: 80 }],
    });
    control.applyPreset("grid-settings", { export_limit_enabled: true, export_limit_watts: 2000 });
    const charge = control.capturePreset("timed-charge") ?? {};
    const grid = control.capturePreset("grid-settings") ?? {};
    control.applyPreset("timed-charge", { enabled: false });
    control.applyPreset("grid-settings", { export_limit_enabled: false });
    const writes = recordWrites(control);
    expect(control.applyPresetValues("timed-charge", charge)).toBe(true);
    expect(control.applyPresetValues("grid-settings", grid)).toBe(true);
    expect(control.capturePreset("timed-charge")).toEqual(charge);
    expect(control.capturePreset("grid-settings")).toEqual(grid);
    // Only what differed was written.
    expect(writes).toEqual([
      [64, "01:00"],
      [65, "05:00"],
      [66, true],
    ]);
    control.conditions.locked = true;
    expect(control.applyPresetValues("timed-charge", charge)).toBe(false);
  });
});
