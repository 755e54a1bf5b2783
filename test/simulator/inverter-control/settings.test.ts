import { describe, expect, it } from "vitest";
import { settingDescriptor } from "../../../src/cloud/schemas/inverter-control.js";
import { GEN3_HYBRID_SETTINGS } from "../../../src/simulator/inverter-control/index.js";
import { checkValue } from "../../../src/validation/index.js";
import { inverter, recordWrites } from "./helpers.js";

describe("settings of the simulated Gen3 hybrid", () => {
  it("lists the 79 settings of the real listing, in the client's wire shape", () => {
    const list = inverter().settingsList();
    expect(list).toHaveLength(79);
    for (const setting of list) expect(settingDescriptor.safeParse(setting).success).toBe(true);
    expect(list.find((setting) => setting.id === 71)).toEqual({
      id: 71,
      name: "Battery Reserve % Limit",
      validation: "Value must be between 4 and 100",
      validation_rules: ["between:4,100"],
    });
  });

  it("holds a factory value for every readable setting, each passing its own rules", () => {
    const control = inverter();
    for (const setting of GEN3_HYBRID_SETTINGS) {
      const value = control.get(setting.id);
      if (setting.writeonly) {
        expect(value).toBeUndefined();
        continue;
      }
      expect(value, `setting ${setting.id}`).toBeDefined();
      expect(checkValue(value, setting.rules).problems, `setting ${setting.id} = ${String(value)}`).toEqual([]);
    }
    expect(GEN3_HYBRID_SETTINGS.filter((setting) => setting.writeonly).map((setting) => setting.id)).toEqual([83]);
    expect(Object.keys(control.captureSettings())).toHaveLength(78);
  });

  it("starts at the factory state: Eco on, no timers, reserve and cutoff 4, full power", () => {
    const control = inverter();
    expect([24, 66, 56, 504, 17].map((id) => control.get(id))).toEqual([true, false, false, false, false]);
    expect([64, 65, 53, 54, 155, 156].map((id) => control.get(id))).toEqual(Array(6).fill("00:00"));
    expect([71, 75, 72, 73, 96, 101, 129].map((id) => control.get(id))).toEqual([4, 4, 3600, 3600, 0, 100, 4]);
  });

  it("writes and reads back, answering the value the inverter kept", () => {
    const control = inverter();
    expect(control.write(71, 20)).toEqual({ value: 20, success: true, message: "Written Successfully" });
    expect(control.read(71)).toMatchObject({ value: 20, success: true });
    expect(control.write(64, "05:30")).toMatchObject({ value: "05:30", success: true });
    expect(control.read(64).value).toBe("05:30");
    // Booleans as 1/0, numbers as text (as multi-control sends them), registers as whole numbers.
    expect(control.write(66, 1)).toMatchObject({ value: true, success: true });
    expect(control.write(24, "0")).toMatchObject({ value: false, success: true });
    expect(control.write(72, "2500")).toMatchObject({ value: 2500, success: true });
    expect(control.write(96, "2").value).toBe(2);
    expect(control.write(73, 1000.6).value).toBe(1001);
  });

  it("refuses a bad value with -4 naming what is allowed, and changes nothing", () => {
    const control = inverter();
    const writes = recordWrites(control);
    expect(control.write(71, 3)).toEqual({
      value: -4,
      success: false,
      message: "Battery Reserve % Limit must be between 4 and 100",
    });
    expect(control.write(64, "24:00").message).toBe("AC Charge 1 Start Time must be a time as HH:mm");
    expect(control.write(24, "yes").message).toBe("Enable Eco Mode must be true or false");
    expect(control.write(96, 4).message).toBe("Pause Battery must be one of 0, 1, 2, 3");
    expect(control.write(83, 99).message).toBe("Restart Inverter must be exactly 100");
    expect(writes).toEqual([]);
    expect([control.get(71), control.get(64), control.get(24), control.get(96)]).toEqual([4, "00:00", true, 0]);
  });

  it("answers -3 for a setting the inverter does not have, -4 when reading a write-only one", () => {
    const control = inverter();
    expect(control.read(999)).toMatchObject({ value: -3, success: false });
    expect(control.write(999, 1)).toMatchObject({ value: -3, success: false });
    expect(control.read(83)).toMatchObject({
      value: -4,
      success: false,
      message: "Restart Inverter can only be written, not read",
    });
    const writes = recordWrites(control);
    expect(control.write(83, 100)).toMatchObject({ value: 100, success: true });
    expect(writes).toEqual([[83, 100]]);
    expect(control.get(83)).toBeUndefined();
  });

  it("answers -2 when offline and -7 when locked, changing nothing", () => {
    const control = inverter();
    const writes = recordWrites(control);
    control.conditions.offline = true;
    expect(control.write(71, 50)).toEqual({ value: -2, success: false, message: "Inverter Offline" });
    expect(control.read(71)).toEqual({ value: -2, success: false, message: "Inverter Offline" });
    control.conditions.offline = false;
    control.conditions.locked = true;
    expect(control.write(71, 50)).toEqual({ value: -7, success: false, message: "Inverter Locked" });
    expect(control.read(71).value).toBe(-7);
    control.conditions.noAccess = true;
    expect(control.write(71, 50).value).toBe(-3);
    expect(writes).toEqual([]);
    expect(control.get(71)).toBe(4);
  });

  it("an injected timeout answers -1; the write applied or not, by the seeded random", () => {
    const outcomes = new Set<boolean>();
    for (let seed = 1; seed <= 20; seed++) {
      const control = inverter({ seed });
      control.injectTimeouts(1);
      expect(control.write(71, 50)).toEqual({ value: -1, success: false, message: "Inverter Timeout" });
      outcomes.add(control.get(71) === 50);
      // Only the next request timed out.
      expect(control.write(71, 60).success).toBe(true);
    }
    expect(outcomes).toEqual(new Set([true, false]));
  });

  it("the same seed gives the same timeout outcomes", () => {
    const run = () => {
      const control = inverter({ seed: 7 });
      control.injectTimeouts(5);
      return [10, 20, 30, 40, 50].map((value) => {
        control.write(71, value);
        return control.get(71);
      });
    };
    expect(run()).toEqual(run());
  });

  it("timeouts hit reads too, and a refused request does not use one up", () => {
    const control = inverter();
    control.injectTimeouts(2);
    expect(control.write(71, 3).value).toBe(-4);
    control.conditions.offline = true;
    expect(control.read(71).value).toBe(-2);
    control.conditions.offline = false;
    expect(control.read(71).value).toBe(-1);
    expect(control.read(71).value).toBe(-1);
    expect(control.read(71).value).toBe(4);
  });

  it("captures and restores the settings", () => {
    const control = inverter();
    const before = control.captureSettings();
    expect(before["83"]).toBeUndefined();
    control.write(71, 30);
    control.write(24, false);
    control.write(64, "01:00");
    expect(control.restoreSettings(before)).toEqual({ success: true, failed: [] });
    expect(control.captureSettings()).toEqual(before);
  });

  it("restore writes only what differs and fails when the inverter cannot be changed", () => {
    const control = inverter();
    const snapshot = control.captureSettings();
    control.write(71, 30);
    const writes = recordWrites(control);
    control.conditions.locked = true;
    expect(control.restoreSettings(snapshot).success).toBe(false);
    expect(control.get(71)).toBe(30);
    control.conditions.locked = false;
    expect(control.restoreSettings(snapshot)).toEqual({ success: true, failed: [] });
    expect(writes).toEqual([[71, 4]]);
    expect(control.restoreSettings({ ...snapshot, "71": 3, "999": 1 })).toEqual({ success: false, failed: [71, 999] });
  });
});
