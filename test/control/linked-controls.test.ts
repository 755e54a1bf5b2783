import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { SettingDescriptor } from "../../src/cloud/schemas/inverter-control.js";
import { presetsOfSetting, settingsOfPreset } from "../../src/control/linked-controls.js";

const settings = (
  JSON.parse(readFileSync(new URL("../fixtures/inverter-settings.gen3-hybrid.json", import.meta.url), "utf8")) as {
    data: SettingDescriptor[];
  }
).data;

describe("linked controls on a real Gen3 listing", () => {
  it("the reserve preset writes the reserve and cutoff settings, and the reserve setting belongs to it", () => {
    expect(settingsOfPreset("battery-operating-range", settings)).toEqual(expect.arrayContaining([71, 75]));
    expect(presetsOfSetting(71, settings)).toEqual(["battery-operating-range"]);
  });

  it("eco mode and pause battery find their settings by name", () => {
    expect(settingsOfPreset("eco-mode", settings)).toEqual([24]);
    expect(settingsOfPreset("pause-battery", settings).sort((a, b) => a - b)).toEqual([96, 155, 156]);
  });

  it("a setting no preset writes links to nothing", () => {
    expect(presetsOfSetting(504, settings)).toEqual([]);
    expect(settingsOfPreset("no-such-preset", settings)).toEqual([]);
  });
});
