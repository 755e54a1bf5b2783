import { describe, expect, it } from "vitest";
import { type ChangeRequest, FULL_POWER_FLAG, type SideEffectDevice, sideEffectsOf } from "../../src/control/index.js";

const SERIAL = "SD2024G001";
const preset = (name: string, fields: Record<string, unknown>): ChangeRequest => ({
  kind: "preset",
  serial: SERIAL,
  preset: name,
  fields,
});
const device = (flags: string[], path: SideEffectDevice["path"], presets = ["eco-mode", "timed-export"]) => ({
  flags,
  path,
  presets: presets.map((identifier) => ({ identifier })),
});
const exportOn = preset("timed-export", { enabled: true, slots: [{ start_time: "17:00", end_time: "18:00" }] });
const ecoOff = preset("eco-mode", { enabled: false });
const effects = (request: ChangeRequest, on: SideEffectDevice | undefined) =>
  sideEffectsOf(request, on).map((effect) => effect.request);

describe("the side effects a restore saves", () => {
  it("timed-export switched on switches Eco mode off over the cloud only without full-power-discharge-in-eco-mode", () => {
    expect(effects(exportOn, device(["is-controllable"], "cloud"))).toEqual([ecoOff]);
    expect(effects(exportOn, device(["is-controllable", FULL_POWER_FLAG], "cloud"))).toEqual([]);
    // The path not known: the cloud's rule, by the flags.
    expect(effects(exportOn, device([], undefined))).toEqual([ecoOff]);
  });

  it("over the LAN timed-export writes Eco mode off whatever the flags; timed-discharge writes it on", () => {
    expect(effects(exportOn, device([FULL_POWER_FLAG], "local"))).toEqual([ecoOff]);
    const dischargeOn = preset("timed-discharge", { enabled: true });
    expect(effects(dischargeOn, device([FULL_POWER_FLAG], "local"))).toEqual([preset("eco-mode", { enabled: true })]);
    expect(effects(dischargeOn, device([], "cloud"))).toEqual([]);
  });

  it("none for a change that does not switch the preset on, a device without Eco mode, or an unknown device", () => {
    expect(effects(preset("timed-export", { enabled: false }), device([], "cloud"))).toEqual([]);
    expect(effects(preset("timed-export", { slots: [{ start_time: "17:00" }] }), device([], "local"))).toEqual([]);
    // A three-phase lists no Eco mode: saving it would fail the whole window.
    expect(effects(exportOn, device([], "local", ["timed-export"]))).toEqual([]);
    expect(effects(exportOn, undefined)).toEqual([]);
    expect(effects(preset("eco-mode", { enabled: false }), device([], "cloud"))).toEqual([]);
  });
});
