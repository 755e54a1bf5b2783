import { describe, expect, it } from "vitest";
import {
  CLOUD_SETTINGS,
  checkWritable,
  controlMapOf,
  decodeSetting,
  encodeSetting,
  type Model,
  type PresetFieldKey,
} from "../../src/local/index.js";

const step3 = (from: number, to: number): number[] =>
  Array.from({ length: Math.floor((to - from) / 3) + 1 }, (_, index) => from + index * 3);
const sorted = (ids: number[]): number[] => [...new Set(ids)].sort((a, b) => a - b);

/** The groups of the cloud's settings, by setting ID. */
const BASE = [17, 24, 47, 56, 66, 71, 75, 77]; // charge target enable, eco, max output, DC discharge, AC charge, reserve, cutoff, charge target
const SLOTS_1_2 = [64, 65, 102, 103, 53, 54, 41, 42]; // AC charge 1-2 and DC discharge 1-2 times
const SLOTS_3_10 = [...step3(105, 126), ...step3(106, 127), ...step3(131, 152), ...step3(132, 153)];
const SLOT_LIMITS = [101, ...step3(104, 128), 129, 130, ...step3(133, 154)];
const AC_BLOCK = [96, 155, 156, 265, 267, 268, 271]; // pause mode and slot, export priority, power %, EPS
const PAUSE = [96, 155, 156]; // pause mode and slot (HR 318-320)
const THREE_PHASE = [17, 56, 66, 71, 77];
/** An EMS's own charge and discharge slots 1-3 with their targets; its plant enable and export limit are preset fields (below). */
const EMS_SLOTS = [64, 65, 101, 102, 103, 104, 105, 106, 107, 53, 54, 129, 41, 42, 130, 131, 132, 133];
/** Every setting the cloud's listing has, and the ones no LAN map offers. */
const EVERY = sorted([...CLOUD_SETTINGS.map((setting) => setting.id), 83, 504]);
const NOWHERE = [72, 73, 83, 504]; // battery charge/discharge watts (the registers are a C-rate), restart, real-time control

const OFFERED: readonly [Model, number | undefined, number[]][] = [
  ["Hybrid Gen1", 193, [...BASE, ...SLOTS_1_2]],
  ["Hybrid Gen2", 890, [...BASE, ...SLOTS_1_2]],
  ["Hybrid Gen3", 302, [...BASE, ...SLOTS_1_2]],
  ["Hybrid Gen3", 315, [...BASE, ...SLOTS_1_2, ...SLOTS_3_10, ...SLOT_LIMITS]],
  ["HV Hybrid Gen3", undefined, [...BASE, ...SLOTS_1_2, ...SLOTS_3_10, ...SLOT_LIMITS]],
  ["Hybrid Gen4", undefined, [...BASE, ...SLOTS_1_2, ...SLOTS_3_10, ...SLOT_LIMITS]],
  ["AC-coupled", 193, [...BASE, ...SLOTS_1_2, ...AC_BLOCK]],
  ["All-in-One", 616, [...BASE, ...SLOTS_1_2, ...SLOTS_3_10, ...SLOT_LIMITS, ...AC_BLOCK]],
  ["Three-phase hybrid", 315, [...THREE_PHASE, ...SLOTS_1_2, ...SLOTS_3_10]],
  ["Three-phase AC-coupled", undefined, [...THREE_PHASE, ...SLOTS_1_2, ...SLOTS_3_10]],
  ["Polar", undefined, []],
  ["EMS", undefined, EMS_SLOTS],
  // Its own registers, as GivTCP reads and writes a gateway (its power limits need its All-in-Ones' count: below).
  ["Gateway", undefined, [...BASE, ...SLOTS_1_2, ...SLOTS_3_10, ...SLOT_LIMITS, ...PAUSE]],
  ["Unknown", undefined, []],
];

describe("the settings each model offers over the LAN", () => {
  it.each(OFFERED)("%s (ARM %s) offers exactly its settings, and not the others", (model, armFirmware, offered) => {
    const map = controlMapOf({ model, armFirmware });
    const expected = sorted(offered);
    expect([...map.settings.keys()].sort((a, b) => a - b)).toEqual(expected);
    const notOffered = EVERY.filter((id) => !expected.includes(id));
    for (const id of notOffered) expect(map.settings.has(id)).toBe(false);
    for (const id of NOWHERE) expect(notOffered).toContain(id);
    // Every offered setting is one of the cloud's, under the same id.
    for (const id of expected) expect(CLOUD_SETTINGS.some((setting) => setting.id === id)).toBe(true);
  });

  it("maps each setting to the register the public maps give", () => {
    const gen3 = controlMapOf({ model: "Hybrid Gen3", armFirmware: 315 });
    const register = (id: number) => gen3.settings.get(id)?.register;
    expect([71, 75, 66, 17, 77, 24, 56, 47].map(register)).toEqual([110, 114, 96, 20, 116, 27, 59, 50]);
    // AC charge slot 1, 2, 3 and 10: times and SOC limits.
    expect([64, 65, 101, 102, 103, 104, 105, 106, 107, 126, 127, 128].map(register)).toEqual([
      94, 95, 242, 31, 32, 245, 246, 247, 248, 267, 268, 269,
    ]);
    // DC discharge slot 1, 2, 3 and 10.
    expect([53, 54, 129, 41, 42, 130, 131, 132, 133, 152, 153, 154].map(register)).toEqual([
      56, 57, 272, 44, 45, 275, 276, 277, 278, 297, 298, 299,
    ]);
    const aio = controlMapOf({ model: "All-in-One", armFirmware: 616 });
    expect([96, 155, 156, 265, 267, 268, 271].map((id) => aio.settings.get(id)?.register)).toEqual([
      318, 319, 320, 311, 313, 314, 317,
    ]);
    const ems = controlMapOf({ model: "EMS" });
    // Discharge slots from HR 2044, charge slots from HR 2053: start, end, target.
    expect([53, 54, 129, 41, 42, 130, 133, 64, 65, 101, 102, 107].map((id) => ems.settings.get(id)?.register)).toEqual([
      2044, 2045, 2046, 2047, 2048, 2049, 2052, 2053, 2054, 2055, 2056, 2061,
    ]);
    const threePhase = controlMapOf({ model: "Three-phase hybrid", armFirmware: 315 });
    expect([71, 66, 77, 64, 65, 102, 53, 54, 41].map((id) => threePhase.settings.get(id)?.register)).toEqual([
      1109, 1112, 1111, 1113, 1114, 1115, 1118, 1119, 1120,
    ]);
  });
});

/** The preset fields with no cloud setting (plant EMS control, grid settings) each model holds in a register. */
const PRESET_FIELDS: readonly [Model, Record<string, number>][] = [
  ["Hybrid Gen1", {}],
  ["Hybrid Gen2", {}],
  ["Hybrid Gen3", {}],
  ["HV Hybrid Gen3", {}],
  ["Hybrid Gen4", {}],
  // The AC-output block HR 300-359 has no export limit; single-phase models offer none over the LAN.
  ["AC-coupled", {}],
  ["All-in-One", {}],
  ["Three-phase hybrid", { "grid-settings.export_limit_watts": 1102, "grid-settings.export_limit_enabled": 1103 }],
  ["Three-phase AC-coupled", { "grid-settings.export_limit_watts": 1102, "grid-settings.export_limit_enabled": 1103 }],
  ["Polar", {}],
  // The EMS: plant enable, export slots 1-3 (start, end, battery level), a plant export limit (HR 2071) but no switch for it.
  [
    "EMS",
    {
      "plant-ems-enable-control.enabled": 2040,
      "timed-export.slot_1_start_time": 2062,
      "timed-export.slot_1_end_time": 2063,
      "timed-export.slot_1_percent_limit": 2064,
      "timed-export.slot_2_start_time": 2065,
      "timed-export.slot_2_end_time": 2066,
      "timed-export.slot_2_percent_limit": 2067,
      "timed-export.slot_3_start_time": 2068,
      "timed-export.slot_3_end_time": 2069,
      "timed-export.slot_3_percent_limit": 2070,
      "grid-settings.export_limit_watts": 2071,
    },
  ],
  ["Gateway", {}],
  ["Unknown", {}],
];

describe("the preset fields each model holds in a register", () => {
  it.each(PRESET_FIELDS)("%s holds exactly these", (model, fields) => {
    const map = controlMapOf({ model, armFirmware: 315 });
    expect(Object.fromEntries([...map.presetFields.values()].map((one) => [one.key, one.register]))).toEqual(fields);
    for (const register of Object.values(fields)) expect(() => checkWritable(map, register)).not.toThrow();
  });
});

/** Each model's number ranges over the LAN, by setting ID or preset field: its registers' (src/local/registers/ranges.ts). */
const RANGES: readonly [Model, Record<string, string>][] = [
  ["Hybrid Gen1", { 47: "0-100", 71: "4-100", 75: "4-100", 77: "0-100" }],
  ["Hybrid Gen3", { 47: "0-100", 71: "4-100", 75: "4-100", 77: "0-100", 101: "0-100", 129: "4-100", 154: "4-100" }],
  ["All-in-One", { 47: "0-100", 71: "4-100", 128: "0-100", 130: "4-100", 267: "1-100", 268: "1-100" }],
  // HR 1109/1111 and the export limit HR 1102, as the vendor documents them for the three-phase.
  ["Three-phase hybrid", { 71: "1-100", 77: "1-100", "grid-settings.export_limit_watts": "0-60000" }],
  ["Three-phase AC-coupled", { 71: "1-100", 77: "1-100", "grid-settings.export_limit_watts": "0-60000" }],
  // The plant export limit HR 2071: the register's own range (no vendor bound; a real EMS holds 9500).
  [
    "EMS",
    {
      101: "0-100",
      129: "4-100",
      "timed-export.slot_1_percent_limit": "4-100",
      "grid-settings.export_limit_watts": "0-65535",
    },
  ],
];

describe("the ranges of each model's numbers over the LAN", () => {
  it.each(RANGES)("%s takes its registers' ranges", (model, ranges) => {
    const map = controlMapOf({ model, armFirmware: 315 });
    for (const [key, range] of Object.entries(ranges)) {
      const entry = /^\d+$/.test(key) ? map.settings.get(Number(key)) : map.presetFields.get(key as PresetFieldKey);
      const [min, max] = range.split("-").map(Number);
      expect(entry?.range, key).toEqual({ min, max });
      expect(entry?.rules, key).toContain(`between:${min},${max}`);
    }
  });

  it.each(OFFERED)(
    "%s (ARM %s) has a range of its own for every number, none left from the cloud",
    (model, armFirmware) => {
      const map = controlMapOf({ model, armFirmware });
      for (const entry of [...map.settings.values(), ...map.presetFields.values()]) {
        const ranged = entry.rules.filter((rule) => /^(between|min|max):/.test(rule));
        expect(ranged, "settingId" in entry ? `setting ${entry.settingId}` : entry.key).toEqual(
          entry.range ? [`between:${entry.range.min},${entry.range.max}`] : [],
        );
      }
    },
  );
});

describe("the allowlist", () => {
  const gen1 = controlMapOf({ model: "Hybrid Gen1", armFirmware: 193 });

  it.each([
    ["Hybrid Gen1", 193],
    ["All-in-One", 616],
    ["Three-phase hybrid", 315],
    ["EMS", 312],
  ] as const)("holds exactly the registers of the settings and preset fields the %s offers", (model, armFirmware) => {
    const map = controlMapOf({ model, armFirmware });
    expect([...map.allowlist].sort((a, b) => a - b)).toEqual(
      sorted([...map.settings.values(), ...map.presetFields.values()].map((entry) => entry.register)),
    );
  });

  it.each([
    [162, /holding register 162 \(the energy-total reset \(destructive\)\) is never written over the LAN/],
    [5004, /5004 \(the factory-defaults restore \(destructive\)\)/],
    [1016, /1016 \(the three-phase factory reset/],
    [5003, /5003 \(black start/],
    [331, /331 \(forced off-grid/],
    [63, /63 \(grid protection limits \(installer\)\)/],
    [83, /83 \(grid protection limits/],
    [163, /163 \(the inverter's restart\)/],
  ])("refuses the installer or destructive register %i with what it is", (register, message) => {
    expect(() => checkWritable(gen1, register)).toThrow(message);
    // Whatever the model: an All-in-One, whose map is the largest, refuses them too.
    expect(() => checkWritable(controlMapOf({ model: "All-in-One", armFirmware: 616 }), register)).toThrow(message);
  });

  it("refuses a register outside the model's allowlist, naming the model", () => {
    expect(() => checkWritable(gen1, 246)).toThrow(
      "holding register 246 is not in the Hybrid Gen1's allowlist: only the registers of the settings and presets offered over the LAN are written",
    );
    // The EMS's car charge mode and compensation registers follow its export limit; none is offered.
    expect(() => checkWritable(controlMapOf({ model: "EMS" }), 2072)).toThrow(/not in the EMS's allowlist/);
    expect(() => checkWritable(controlMapOf({ model: "EMS" }), 2075)).toThrow(/not in the EMS's allowlist/);
    // An inverter takes none of the EMS's plant registers, and a single-phase one not the three-phase export limit.
    expect(() => checkWritable(controlMapOf({ model: "Hybrid Gen3", armFirmware: 315 }), 2040)).toThrow(
      /not in the Hybrid Gen3's allowlist/,
    );
    expect(() => checkWritable(controlMapOf({ model: "All-in-One", armFirmware: 616 }), 1102)).toThrow(
      /not in the All-in-One's allowlist/,
    );
    // The peak-shaving export limit (HR 20000/20001) is unconfirmed on hardware: nowhere offered.
    expect(() => checkWritable(controlMapOf({ model: "All-in-One", armFirmware: 616 }), 20001)).toThrow(
      /not in the All-in-One's allowlist/,
    );
  });
});

describe("the codecs", () => {
  const gen3 = controlMapOf({ model: "Hybrid Gen3", armFirmware: 315 });
  const entry = (id: number) => {
    const found = gen3.settings.get(id);
    if (!found) throw new Error(`no setting ${id}`);
    return found;
  };

  it("holds a time of day as HHMM, and reads it back as HH:mm", () => {
    expect(encodeSetting(entry(64), "05:30")).toBe(530);
    expect(encodeSetting(entry(64), "00:00")).toBe(0);
    expect(encodeSetting(entry(65), "23:59")).toBe(2359);
    expect(decodeSetting(entry(64), 530)).toBe("05:30");
    expect(decodeSetting(entry(65), 2359)).toBe("23:59");
    expect(() => encodeSetting(entry(64), "24:00")).toThrow(/takes a time as HH:mm, not "24:00"/);
    expect(() => decodeSetting(entry(64), 1261)).toThrow(/holds 1261, which is no time of day/);
  });

  it("holds the EMS's plant enable as 0/1 and its export limit in watts, naming the field when refused", () => {
    const ems = controlMapOf({ model: "EMS" });
    const enable = ems.presetFields.get("plant-ems-enable-control.enabled");
    const limit = ems.presetFields.get("grid-settings.export_limit_watts");
    if (!enable || !limit) throw new Error("the EMS has no plant enable or export limit");
    expect([encodeSetting(enable, true), decodeSetting(enable, 0)]).toEqual([1, false]);
    expect([encodeSetting(limit, 3000), decodeSetting(limit, 2500)]).toEqual([3000, 2500]);
    expect(() => encodeSetting(limit, -1)).toThrow(
      "preset field grid-settings.export_limit_watts takes a whole number from 0 to 65535, not -1",
    );
  });

  it("holds a switch as 0/1 and a percentage as the number", () => {
    expect(encodeSetting(entry(66), true)).toBe(1);
    expect(encodeSetting(entry(66), false)).toBe(0);
    expect(decodeSetting(entry(66), 1)).toBe(true);
    expect(decodeSetting(entry(66), 0)).toBe(false);
    expect(encodeSetting(entry(71), 20)).toBe(20);
    expect(decodeSetting(entry(71), 20)).toBe(20);
    expect(() => encodeSetting(entry(71), 20.5)).toThrow(/whole number/);
    expect(() => encodeSetting(entry(66), "yes")).toThrow(/takes true or false/);
  });
});
