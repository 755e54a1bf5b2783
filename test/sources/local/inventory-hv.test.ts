import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readCapture } from "../../../src/local/capture.js";
import { ChainDecoder } from "../../../src/local/decode.js";
import { localInventory } from "../../../src/sources/local/inventory.js";
import { CAPTURE_FILES, CAPTURES, type CaptureName } from "../../local/captures.js";

/** The inventory the LAN source builds from what one dongle of a real HV plant answered. */
function inventoryOf(name: CaptureName) {
  const bus = new ChainDecoder().acceptAll(
    readCapture(readFileSync(`${CAPTURES}/${CAPTURE_FILES[name]}`, "utf8")).frames,
  );
  const identified = { dongleSerial: "WH0000G000", detected: bus.detect(), devices: bus.devices(), roundTripMs: 1 };
  return localInventory([{ index: 0, identified }], "Europe/London");
}

/** The device listing's All-in-One (predbat_doc_communication_device_list.json): one module, 96 cells at 307.2 V, 52 Ah. */
const PLANTS = [
  { name: "aio612", cells: 96, volts: 307.2, design: 49.3 },
  { name: "aio620", cells: 96, volts: 307.2, design: 49.5 },
  { name: "hvGen3", cells: 72, volts: 230.4, design: 52 },
  { name: "threePhaseDetect", cells: 144, volts: 460.8, design: 52 },
] as const;

describe.each(PLANTS)("an HV plant's battery as the cloud lists it ($name)", ({ name, cells, volts, design }) => {
  it("is one module for the stack, its cells those of its BMUs, its capacity the BCU's Ah", () => {
    const [inverter, ...others] = inventoryOf(name).inverters;
    expect(others).toHaveLength(0);
    expect(inverter?.batteries).toEqual([
      {
        module_number: 1,
        serial: expect.stringMatching(/^H[A-Z]\w{8}$|^FG\w{8}$/),
        capacity: { full: null, design },
        cell_count: cells,
        nominal_voltage: volts,
      },
    ]);
  });
});

describe("LV packs keep their own listing", () => {
  it("a Gen1 hybrid with two packs lists two modules and no HV stack", () => {
    const [inverter] = inventoryOf("hybrid60").inverters;
    expect(inverter?.batteries.map((module) => module.module_number)).toEqual([1, 2]);
    expect(inverter?.batteries.every((module) => module.cell_count === undefined)).toBe(true);
  });
});
