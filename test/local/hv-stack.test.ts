import { describe, expect, it } from "vitest";
import { readCapture } from "../../src/local/capture.js";
import { ChainDecoder, type DecodedDevice } from "../../src/local/decode.js";
import { type CaptureName, captureText } from "./captures.js";

const devices = (name: CaptureName): DecodedDevice[] =>
  new ChainDecoder().acceptAll(readCapture(captureText(name)).frames).devices();
const modulesOf = (list: DecodedDevice[]): DecodedDevice[] =>
  list.filter((device) => device.model === "HV battery module (BMU)");
const at = (list: DecodedDevice[], address: string): DecodedDevice => {
  const device = list.find((d) => d.address === address);
  if (!device) throw new Error(`nothing at ${address} in ${JSON.stringify(list.map((d) => d.address))}`);
  return device;
};
const num = (device: DecodedDevice, key: string): number => {
  const value = device.state[key];
  if (typeof value !== "number")
    throw new Error(`${device.address} has no number ${key}: ${JSON.stringify(device.state)}`);
  return value;
};

/** The HV plants of the captures: where their modules answer, and the stack's charge level the BCU reported last. */
const PLANTS: readonly {
  name: CaptureName;
  modules: string[];
  soc: number;
  bams?: { modules: number; cells: number };
}[] = [
  { name: "hvGen3", modules: ["0x50", "0x51", "0x52"], soc: 100 },
  { name: "aio612", modules: ["0x50", "0x51", "0x52", "0x53"], soc: 34, bams: { modules: 4, cells: 96 } },
  { name: "aio620", modules: ["0x50", "0x51", "0x52", "0x53"], soc: 42, bams: { modules: 4, cells: 96 } },
  {
    name: "threePhaseDetect",
    modules: ["0x50", "0x51", "0x52", "0x53", "0x54", "0x55"],
    soc: 92,
    bams: { modules: 6, cells: 144 },
  },
];

describe.each(PLANTS)("the HV stack of $name, decoded from the real capture", ({ name, modules, soc }) => {
  const list = devices(name);

  it("lists each BMU module at its address, with a serial, 24 cells, and a voltage of 24 LFP cells", () => {
    const found = modulesOf(list);
    expect(found.map((m) => m.address)).toEqual(modules);
    for (const module of found) {
      expect(module.kind).toBe("battery module");
      expect(module.serial).toMatch(/^[A-Z0-9]{6,10}$/);
      expect(num(module, "cell_count")).toBe(24);
      // 24 LFP cells between 3.0 and 3.45 V each.
      expect(num(module, "voltage")).toBeGreaterThan(72);
      expect(num(module, "voltage")).toBeLessThan(82.8);
      expect(num(module, "cell_voltage_min")).toBeLessThanOrEqual(num(module, "cell_voltage_max"));
      expect(num(module, "cell_voltage_max") - num(module, "cell_voltage_min")).toBeLessThan(0.05);
      expect(num(module, "temperature_min")).toBeGreaterThan(5);
      expect(num(module, "temperature_max")).toBeLessThan(60);
    }
  });

  it("the modules add up to the BCU's stack voltage, and the BCU carries the charge level and module count", () => {
    const bcu = at(list, "0x70");
    const sum = modulesOf(list).reduce((total, module) => total + num(module, "voltage"), 0);
    // The BCU reads the stack at another instant than the modules: within 2 %.
    expect(Math.abs(sum - num(bcu, "voltage")) / num(bcu, "voltage")).toBeLessThan(0.02);
    expect(num(bcu, "modules")).toBe(modules.length);
    expect(num(bcu, "soc")).toBe(soc);
  });
});

describe.each(PLANTS.filter((plant) => plant.bams))("the BAMS summary at 0xA0 of $name", ({ name, bams }) => {
  it("counts the same modules and their cells", () => {
    const list = devices(name);
    const summary = at(list, "0xa0");
    expect(summary.model).toBe("BAMS");
    expect(summary.state).toMatchObject({ stacks: 1, modules: bams?.modules, cell_count: bams?.cells });
    expect(modulesOf(list)).toHaveLength(bams?.modules ?? -1);
    // It answers with the inverter's serial: its own is told apart from the inverter's.
    expect(summary.serial).not.toBe(list[0]?.serial);
  });
});

describe("the three-phase BAMS cluster view at 0x90", () => {
  it.each(["threePhaseDetect", "threePhaseHass", "threePhase10"] as const)(
    "%s: carries the stack's voltage and current, as the BCU reads them",
    (name) => {
      const list = devices(name);
      const cluster = at(list, "0x90");
      const bcu = at(list, "0x70");
      expect(cluster.model).toBe("BAMS (cluster)");
      expect(Math.abs(num(cluster, "voltage") - num(bcu, "voltage"))).toBeLessThan(5);
      expect(num(cluster, "voltage")).toBeGreaterThan(6 * 72);
      expect(Math.abs(num(cluster, "current"))).toBeLessThan(50);
    },
  );
});

describe("a module bank shifted on the bus", () => {
  it("does not take serial text for a temperature (aio620 and the three-phase 10-minute file carry one)", () => {
    for (const name of ["aio620", "threePhase10"] as const) {
      for (const module of modulesOf(devices(name))) expect(num(module, "temperature_max")).toBeLessThan(60);
    }
  });
});
