import { describe, expect, it } from "vitest";
import type { ControlValues } from "../../src/control/index.js";
import { modeOf, PRESET } from "../../src/givtcp/control-words.js";
import { ENDPOINTS } from "../../src/givtcp/writes.js";

/**
 * GivTCP's battery mode over the REST API for an inverter with timed export but no eco switch or
 * timed demand (the three-phase over the LAN): it covers the home whenever no timed export runs.
 */
const SERIAL = "ST2024G001";
const threePhase = (exporting: boolean): ControlValues => ({
  presets: { [PRESET.export]: { enabled: exporting }, [PRESET.range]: { reserve_percent: 10 } },
});
const hybrid = (eco: boolean): ControlValues => ({
  presets: {
    [PRESET.eco]: { enabled: eco },
    [PRESET.export]: { enabled: false },
    [PRESET.demand]: { enabled: false },
    [PRESET.range]: { reserve_percent: 10 },
  },
});
const setMode = (mode: string, controls: ControlValues) => {
  const endpoint = ENDPOINTS.setBatteryMode;
  if (!endpoint) throw new Error("no setBatteryMode");
  return endpoint.plan(endpoint.body.parse({ mode }), SERIAL, controls);
};

describe("GivTCP's mode on an inverter without an eco switch", () => {
  it("reads Eco while no timed export runs, and Timed Export while one does", () => {
    expect(modeOf(threePhase(false))).toBe("Eco");
    expect(modeOf(threePhase(true))).toBe("Timed Export");
    // A model with the switch off still reads as GivTCP's paused export.
    expect(modeOf(hybrid(false))).toBe("Export (Paused)");
  });

  it("sets Eco as timed export off alone, and refuses Timed Demand saying what to send", () => {
    expect(setMode("Eco", threePhase(true))).toMatchObject({
      requests: [{ kind: "preset", serial: SERIAL, preset: PRESET.export, fields: { enabled: false } }],
    });
    expect(setMode("Eco", threePhase(false))).toMatchObject({ requests: [] });
    expect(setMode("Timed Demand", threePhase(false))).toEqual({
      refused: expect.stringMatching(/^Setting Battery Mode failed: .*send Eco or Timed Export$/),
    });
    // Where the switch exists, Eco still turns it on.
    expect(setMode("Eco", hybrid(false))).toMatchObject({
      requests: [{ preset: PRESET.eco, fields: { enabled: true } }],
    });
  });
});
