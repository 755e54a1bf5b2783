import { describe, expect, it } from "vitest";
import { ControlState } from "../../src/control/control-state.js";

const reserve = (serial: string, value: number) => ({ kind: "setting", serial, settingId: 71, value }) as const;

describe("ControlState", () => {
  it("trusts values to skip a write only up to the maximum age", () => {
    let now = 1_000;
    const state = new ControlState(() => now, 60_000);
    state.remember(reserve("SD1", 20));
    now += 60_000;
    expect(state.freshSetting("SD1", 71)).toBe(20);
    now += 1;
    expect(state.freshSetting("SD1", 71)).toBeUndefined();
    // Still the last value the device told, for Home Assistant to show.
    expect(state.values("SD1").settings).toEqual({ 71: 20 });
  });

  it("keeps inverters apart and forgets on request", () => {
    const state = new ControlState(() => 0, 1_000);
    state.remember(reserve("SD1", 20));
    state.remember(reserve("SD2", 30));
    state.forgetSetting("SD1", 71);
    expect([state.freshSetting("SD1", 71), state.freshSetting("SD2", 71)]).toEqual([undefined, 30]);
    expect(state.values("SD1").settings).toEqual({});
  });

  it("holds preset values and EV command data under their device", () => {
    const state = new ControlState(() => 0, 1_000);
    state.remember({ kind: "preset", serial: "SD1", preset: "pause-battery", values: { mode: "pause-charge" } });
    state.remember({
      kind: "ev-command",
      uuid: "ev-1",
      command: "change-mode",
      data: { active: "Eco", available: [] },
    });
    expect(state.values("SD1").presets).toEqual({ "pause-battery": { mode: "pause-charge" } });
    expect(state.values("ev-1").evCommands).toEqual({ "change-mode": { active: "Eco", available: [] } });
    expect(state.values("SD2")).toEqual({});
  });
});
