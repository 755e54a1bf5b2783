import { describe, expect, it } from "vitest";
import { readCapture } from "../../src/local/capture.js";
import { ChainDecoder } from "../../src/local/decode.js";
import { modelFromIdentity } from "../../src/local/registers/model.js";
import { type CaptureName, captureText } from "./captures.js";

const decoded = (name: CaptureName): ChainDecoder =>
  new ChainDecoder().acceptAll(readCapture(captureText(name)).frames);

describe("model detection on the seven real plants", () => {
  it.each([
    ["hybrid60", "Hybrid Gen1", "identity"],
    ["gen2", "Hybrid Gen2", "identity"],
    // This capture has no HR 0 identity bank: a BCU at 0x70 behind single-phase banks tells it.
    ["hvGen3", "HV Hybrid Gen3", "banks"],
    ["threePhaseDetect", "Three-phase hybrid", "identity"],
    ["threePhaseHass", "Three-phase hybrid", "banks"],
    ["aio612", "All-in-One", "identity"],
    ["gatewayDay", "Gateway", "identity"],
    ["ems60s", "EMS", "identity"],
    ["ac2x", "AC-coupled", "identity"],
  ] as const)("%s is a %s (from its %s)", (name, model, from) => {
    const detected = decoded(name).detect();
    expect(detected.model).toBe(model);
    expect(detected.from).toBe(from);
  });

  it.each(["aio612", "aio620"] as const)(
    "%s with its identity bank (HR 0) left out is still an All-in-One, told by its BAMS at 0xA0, not an HV Gen3",
    (name) => {
      const frames = readCapture(captureText(name)).frames.filter(
        ({ frame }) => !(frame.kind === "response" && frame.function === 3 && frame.base === 0),
      );
      const detected = new ChainDecoder().acceptAll(frames).detect();
      expect(detected).toMatchObject({ model: "All-in-One", from: "banks" });
    },
  );

  it("reads the generation of a hybrid from its ARM firmware, and the rest from the type's first digits", () => {
    expect(modelFromIdentity(0x2001, 449)).toBe("Hybrid Gen1");
    expect(modelFromIdentity(0x2003, 920)).toBe("Hybrid Gen2");
    expect(modelFromIdentity(0x2001, 312)).toBe("Hybrid Gen3");
    expect(modelFromIdentity(0x8102, 0)).toBe("HV Hybrid Gen3");
    expect(modelFromIdentity(0x8001, 612)).toBe("All-in-One");
    expect(modelFromIdentity(0x3001, 282)).toBe("AC-coupled");
    expect(modelFromIdentity(0x4004, 0)).toBe("Three-phase hybrid");
    expect(modelFromIdentity(0x7001, 14)).toBe("Gateway");
    expect(modelFromIdentity(0x5001, 1036)).toBe("EMS");
    expect(modelFromIdentity(0x9001, 1)).toBe("Unknown");
  });
});
