import { describe, expect, it } from "vitest";
import { modeSteps } from "../../src/homeassistant/givtcp/mode.js";
import { givtcpMode, givtcpState, withoutGivtcpOnly } from "../../src/homeassistant/givtcp/state.js";

describe("GivTCP's values from the daemon's state", () => {
  it("reads the mode as GivTCP does: export, then demand, then eco on or off", () => {
    expect(givtcpMode({ eco_mode: "ON", timed_discharge: "OFF", timed_export: "ON" })).toBe("Timed Export");
    expect(givtcpMode({ eco_mode: "ON", timed_discharge: "ON", timed_export: "OFF" })).toBe("Timed Demand");
    expect(givtcpMode({ eco_mode: "ON", timed_discharge: "OFF", timed_export: "OFF" })).toBe("Eco");
    expect(givtcpMode({ eco_mode: "OFF", timed_discharge: "OFF", timed_export: "OFF" })).toBe("Eco (Paused)");
    expect(givtcpMode({ eco_mode: null, timed_discharge: null, timed_export: null })).toBeNull();
  });

  it("works out the stored kWh, GivTCP's pause word and the inverter's clock, or none without their inputs", () => {
    const at = Date.UTC(2026, 10, 16, 12, 0, 0, 400);
    expect(
      givtcpState(
        { battery_soc: 43, battery_capacity: 9.5, pause_battery_mode: "Pause Discharge", clock_drift: -90 },
        at,
      ),
    ).toMatchObject({
      givtcp_soc_kwh: 4.09,
      givtcp_battery_pause_mode: "PauseDischarge",
      givtcp_invertor_time: "2026-11-16T11:58:30+00:00",
    });
    expect(givtcpState({ battery_soc: 43, battery_capacity: null }, at)).toMatchObject({
      givtcp_soc_kwh: null,
      givtcp_battery_pause_mode: null,
      givtcp_invertor_time: null,
    });
  });
});

describe("an AC-coupled unit's PV input in the state", () => {
  it("goes only to GivTCP's names: the own naming's state is without it", () => {
    const reading = { pv_input_power: 0, today_pv_input_energy: 0, grid_power: -330 };
    expect(withoutGivtcpOnly(reading)).toEqual({ grid_power: -330 });
    const hybrid = { solar_power: 1380, grid_power: 0 };
    expect(withoutGivtcpOnly(hybrid)).toBe(hybrid);
  });
});

describe("a GivTCP mode as preset changes", () => {
  const all = () => true;

  it("leaves the other discharge preset before entering the new one", () => {
    const steps = modeSteps("Timed Export", all);
    expect(steps).toEqual({
      ok: true,
      steps: [
        { key: "timed_discharge", payload: "OFF" },
        { key: "timed_export", payload: "ON" },
      ],
    });
  });

  it("does not turn off a preset the device does not have, and refuses a mode that needs one it lacks, naming it", () => {
    const steps = modeSteps("Eco", (key) => key === "eco_mode");
    expect(steps).toEqual({ ok: true, steps: [{ key: "eco_mode", payload: "ON" }] });
    const exporting = modeSteps("Timed Export", (key) => key === "eco_mode");
    expect(exporting.ok).toBe(false);
    if (!exporting.ok) expect(exporting.message).toContain("needs timed_export");
  });

  it("refuses a word that is not one of GivTCP's modes, naming them", () => {
    const steps = modeSteps("Turbo", all);
    expect(steps.ok).toBe(false);
    if (!steps.ok) expect(steps.message).toContain("Eco, Eco (Paused), Timed Demand, Timed Export");
  });
});
