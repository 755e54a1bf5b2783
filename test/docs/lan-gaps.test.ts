import { describe, expect, it } from "vitest";
import { cloudOnlyKeys, LAN_GAPS } from "../../scripts/lan-gaps.js";
import type { StateValues } from "../../src/homeassistant/entities/types.js";
import { readCapture } from "../../src/local/capture.js";
import { ChainDecoder } from "../../src/local/decode.js";
import { counterValuesOf, emsValuesOf, liveValuesOf } from "../../src/sources/local/readings.js";
import { type CaptureName, captureText } from "../local/captures.js";

/*
 * docs/entities.md's table of what only the cloud carries, by kind (scripts/lan-gaps.ts), against
 * the real captures: each captured controller, decoded and read into its values as the LAN path
 * reads it, leaves exactly the listed entities empty.
 */

const CAPTURED: Readonly<Record<string, CaptureName>> = {
  "Hybrid Gen1": "hybridPoll",
  "Hybrid Gen2": "gen2",
  "HV Hybrid Gen3": "hvGen3",
  "AC-coupled": "ac2x",
  "All-in-One": "aio612",
  "Three-phase hybrid": "threePhaseDetect",
  Gateway: "gatewayDay",
  EMS: "ems60s",
};

/** What the LAN leaves empty and the simulator's cloud does too for a gateway (test/simulator/local/agreement.test.ts). */
const EMPTY_ON_BOTH: Readonly<Record<string, readonly string[]>> = {
  Gateway: [
    "battery_temperature",
    "inverter_temperature",
    "inverter_output_voltage",
    "inverter_output_frequency",
    "eps_power",
    "today_ac_charge_energy",
    "total_ac_charge_energy",
  ],
};

/** The controller's entities as the LAN path publishes them: its live values and counters. */
function lanEntities(name: CaptureName): { model: string; values: StateValues } {
  const decoder = new ChainDecoder().acceptAll(readCapture(captureText(name)).frames);
  const devices = decoder.devices();
  const controller = devices.find((device) => device.address === "0x11");
  if (!controller) throw new Error(`${name}: no controller decoded`);
  const model = decoder.detect().model;
  if (controller.kind === "ems") {
    const children = devices.filter((device) => device.model === "EMS-managed inverter").map((device) => device.serial);
    return { model, values: emsValuesOf(controller.state, children) };
  }
  return { model, values: { ...liveValuesOf(controller.state), ...counterValuesOf(controller.state) } };
}

describe("what only the cloud carries, by kind", () => {
  it("names each kind's models once", () => {
    const models = LAN_GAPS.flatMap((gap) => gap.models);
    expect(new Set(models).size).toBe(models.length);
  });

  it.each(Object.entries(CAPTURED))("%s: the LAN leaves exactly the listed entities empty", (model, name) => {
    const lan = lanEntities(name);
    expect(lan.model).toBe(model);
    const empty = Object.keys(lan.values).filter((key) => lan.values[key] === null);
    expect(empty.sort()).toEqual([...cloudOnlyKeys(model), ...(EMPTY_ON_BOTH[model] ?? [])].sort());
  });
});
