import { describe, expect, it } from "vitest";
import { givtcpMode } from "../../src/homeassistant/givtcp/state.js";
import { readCapture } from "../../src/local/capture.js";
import { ChainDecoder } from "../../src/local/decode.js";
import { decodeSetting, encodeSetting, type MappedRegister } from "../../src/local/index.js";
import { capacityOf, lanControlMap } from "../../src/sources/local/control-map.js";
import { lanPreset } from "../../src/sources/local/lan-presets.js";
import { captureText } from "./captures.js";

/*
 * The three-phase's battery size, power limits and timed export, decoded from the real GIV-3HY-11
 * capture that holds its configuration banks (HR 0-179, HR 1000-1124) and its HV stack's BCU.
 */

const decoder = new ChainDecoder().acceptAll(readCapture(captureText("threePhaseDetect")).frames);
const detected = decoder.detect();
const devices = decoder.devices();
const map = lanControlMap(detected, devices);
const holding = decoder.registers(0x11).holding;

/** The setting's value as the LAN reads it from the captured register. */
function read(settingId: number): boolean | number | string {
  const control = map.settings.get(settingId);
  if (!control) throw new Error(`the ${map.model} offers no setting ${settingId}`);
  const word = holding.u16(control.register);
  if (word === undefined) throw new Error(`HR ${control.register} is not in the capture`);
  return decodeSetting(control, word);
}

describe("the captured three-phase hybrid's controls", () => {
  it("is a three-phase hybrid whose HR 55 reads 0, so its battery's size is its HV stack's", () => {
    expect(detected.model).toBe("Three-phase hybrid");
    expect(holding.u16(55)).toBe(0);
    const bcu = devices.find((device) => device.model === "HV battery stack (BCU)");
    expect(bcu?.state).toMatchObject({ modules: 6, design_capacity: 52 });
    // 52.0 Ah through six modules of 24 LFP cells at 3.2 V (460.8 V): 23.96 kWh.
    expect(capacityOf(detected, devices)).toBe(24);
  });

  it("reads the charge and discharge power rates (HR 1110/1108, 1 %) as watts of six modules' 12 kW", () => {
    const charge = map.settings.get(72);
    const discharge = map.settings.get(73);
    expect(charge).toMatchObject({ register: 1110, codec: "power-rate", step: 120, range: { min: 120, max: 12_000 } });
    expect(discharge).toMatchObject({ register: 1108, codec: "power-rate", step: 120 });
    expect(charge?.rules).toContain("multiple_of:120");
    expect(holding.u16(1110)).toBe(1);
    expect(holding.u16(1108)).toBe(1);
    expect(read(72)).toBe(120);
    expect(read(73)).toBe(120);
    // The word for a request is GivTCP's: the share of 12 kW, 1 to 100.
    expect(encodeSetting(charge as MappedRegister, 2400)).toBe(20);
    expect(() => encodeSetting(charge as MappedRegister, 0)).toThrow(/from 120 to 12000/);
  });

  it("discharged far above that 1 % in the same capture: the rate does not hold back the battery covering the home", () => {
    const inverter = devices.find((device) => device.address === "0x11");
    // IR 1136/1137: 1.5 kW and more going to the home's load while HR 1108 held 120 W (docs/entities.md).
    expect(inverter?.state.battery_power).toBeGreaterThan(1000);
    expect(inverter?.state.consumption_power).toBeGreaterThan(1000);
  });

  it("has timed export as its discharge slot and its switch (HR 1118/1119, HR 1122), and no eco switch", () => {
    expect(map.settings.get(56)).toMatchObject({ register: 1122, codec: "bool" });
    expect(map.settings.has(24)).toBe(false);
    expect(read(56)).toBe(true);
    expect(read(53)).toBe("01:00");
    expect(read(54)).toBe("01:00");
    const exportPreset = lanPreset("timed-export");
    expect(exportPreset?.descriptor(map)).toBeDefined();
    expect(lanPreset("eco-mode")?.descriptor(map)).toBeUndefined();
    expect(lanPreset("timed-discharge")?.descriptor(map)).toBeUndefined();
    // Its slots 3-10 (HR 276 on) are not in the capture: only what it holds is read.
    const captured = (id: number | string) => {
      const control = typeof id === "number" ? map.settings.get(id) : undefined;
      return control && holding.has(control.register) ? read(control.settingId) : undefined;
    };
    const values = exportPreset?.values(map, captured);
    expect(values?.enabled).toBe(true);
    expect((values?.slots as unknown[] | undefined)?.[0]).toEqual({ start_time: "01:00", end_time: "01:00" });
    // GivTCP reads the same registers as Timed Export (its eco_mode is HR 27, which reads 0 here).
    expect(holding.u16(27)).toBe(0);
    expect(givtcpMode({ timed_export: "ON" })).toBe("Timed Export");
    expect(givtcpMode({ timed_export: "OFF" })).toBe("Eco");
  });

  it("plans timed export on the three-phase as its slot and its switch, with no eco write", () => {
    const plan = lanPreset("timed-export")?.plan(map, {
      enabled: true,
      slots: [{ start_time: "16:00", end_time: "19:00" }],
    });
    expect(plan).toEqual({
      writes: [
        { id: 53, value: "16:00" },
        { id: 54, value: "19:00" },
        { id: 56, value: true },
      ],
    });
  });
});
