import { describe, expect, it } from "vitest";
import { batteryCapacityKwh, ChainDecoder, readCapture } from "../../src/local/index.js";
import { type CaptureName, captureText } from "./captures.js";

/*
 * The battery's kWh over the LAN (issue 39: Predbat's soc_kwh and soc_max): each captured
 * controller's HR 55, decoded, times its model's nominal voltage, against what its batteries are
 * sold as (the capture's file name says which).
 */
const CASES: readonly { name: CaptureName; model: string; ah: number | undefined; kwh: number | undefined }[] = [
  // A Gen1 with a GivBat 8.2 and a 9.5: 346 Ah at 51.2 V.
  { name: "hybridPoll", model: "Hybrid Gen1", ah: 346, kwh: 17.7 },
  // A Gen2 with one 9.5 kWh pack.
  { name: "gen2", model: "Hybrid Gen2", ah: 186, kwh: 9.5 },
  // An AC-coupled unit with two GivBat 5.2.
  { name: "ac2x", model: "AC-coupled", ah: 204, kwh: 10.4 },
  // The All-in-One's listing: 52 Ah at 307.2 V.
  { name: "aio612", model: "All-in-One", ah: 52, kwh: 16 },
  // The three-phase reads 0 there: no capacity is claimed.
  { name: "threePhaseDetect", model: "Three-phase hybrid", ah: undefined, kwh: undefined },
];

describe("the battery's capacity from HR 55", () => {
  it.each(CASES)("$name ($model): $ah Ah is $kwh kWh", ({ name, model, ah, kwh }) => {
    const decoder = new ChainDecoder().acceptAll(readCapture(captureText(name)).frames);
    const detected = decoder.detect();
    expect(detected.model).toBe(model);
    const controller = decoder.devices().find((device) => device.address === "0x11");
    const read = controller?.state.battery_capacity_ah;
    expect(read).toBe(ah);
    expect(batteryCapacityKwh(detected.model, typeof read === "number" ? read : undefined)).toBe(kwh);
  });

  it("claims none for a model whose voltage the public map does not settle, nor for 0 Ah", () => {
    expect(batteryCapacityKwh("HV Hybrid Gen3", 100)).toBeUndefined();
    expect(batteryCapacityKwh("Hybrid Gen3", 0)).toBeUndefined();
  });
});
