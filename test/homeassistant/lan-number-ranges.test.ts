import { describe, expect, it } from "vitest";
import { checkValue, type PresetValues } from "../../src/cloud/index.js";
import { checkSetting, findPreset, presetProblems } from "../../src/control/index.js";
import { deviceDiscoveryMessages } from "../../src/homeassistant/discovery.js";
import { commandFor } from "../../src/homeassistant/entities/command.js";
import { controlState, entitiesFor } from "../../src/homeassistant/entities/index.js";
import { Topics } from "../../src/homeassistant/topics.js";
import {
  ChainDecoder,
  type ControlMap,
  controlMapOf,
  decodeSetting,
  type Model,
  readCapture,
} from "../../src/local/index.js";
import type { Device } from "../../src/sources/index.js";
import { localInventory } from "../../src/sources/local/inventory.js";
import { type ControlKey, LAN_PRESETS, lanPreset, type Value } from "../../src/sources/local/lan-presets.js";
import { CAPTURE_FILES, type CaptureName, captureText } from "../local/captures.js";

/*
 * Home Assistant's MQTT number drops a state outside the entity's min..max with an error
 * (homeassistant/components/mqtt/number.py, "Invalid value for ..."). Every word a real device
 * held in a register behind a number entity the LAN offers must therefore lie within that
 * entity's range as discovery announces it.
 */

const topics = new Topics("energy2mqtt", "homeassistant");
const origin = { name: "energy2mqtt", sw_version: "0.1.0", support_url: "https://example.invalid" };
const CONTROLLER = 0x11;

/** The number entities discovery announces for the controller, by key, with their range. */
function numberRanges(device: Device, inventory: Parameters<typeof deviceDiscoveryMessages>[1]) {
  const ranges = new Map<string, { min: number; max: number }>();
  for (const { topic, payload } of deviceDiscoveryMessages(device, inventory, { topics, origin })) {
    const key = /\/number\/[^/]+\/([^/]+)\/config$/.exec(topic)?.[1];
    if (key && typeof payload.min === "number" && typeof payload.max === "number")
      ranges.set(key, { min: payload.min, max: payload.max });
  }
  return ranges;
}

/** The control values the LAN reads from these words: the settings and the presets built on them. */
function valuesFrom(map: ControlMap, words: ReadonlyMap<number, number>) {
  const value = (key: ControlKey): Value | undefined => {
    const entry = typeof key === "number" ? map.settings.get(key) : map.presetFields.get(key);
    const word = entry && words.get(entry.register);
    return entry && word !== undefined ? decodeSetting(entry, word) : undefined;
  };
  const settings: Record<number, Value> = {};
  for (const id of map.settings.keys()) {
    const read = value(id);
    if (read !== undefined) settings[id] = read;
  }
  const presets: Record<string, PresetValues> = {};
  for (const preset of LAN_PRESETS) if (preset.descriptor(map)) presets[preset.identifier] = preset.values(map, value);
  return { settings, presets };
}

interface Finding {
  /** Every distinct state each number entity took, by key. */
  readonly seen: ReadonlyMap<string, ReadonlySet<number>>;
  readonly ranges: ReadonlyMap<string, { min: number; max: number }>;
}

/** Replays a capture answer by answer and records each number entity's state after every one. */
function replay(name: CaptureName): Finding {
  const frames = readCapture(captureText(name)).frames;
  const whole = new ChainDecoder().acceptAll(frames);
  const detected = whole.detect();
  const map = controlMapOf(detected);
  const inventory = localInventory(
    [
      {
        index: 0,
        identified: { dongleSerial: "", detected, devices: whole.devices(), roundTripMs: undefined },
        writable: true,
      },
    ],
    "UTC",
  );
  const device: Device | undefined = inventory.ems[0] ?? inventory.inverters.find((one) => one.emsSerial === undefined);
  const ranges = device ? numberRanges(device, inventory) : new Map();
  const seen = new Map<string, Set<number>>();
  const numbers = [...map.settings.values(), ...map.presetFields.values()].filter((entry) => entry.codec === "number");
  const decoder = new ChainDecoder();
  const snapshots = new Set<string>();
  for (const { direction, frame, at } of frames) {
    if (direction !== "rx") continue;
    decoder.accept(frame, at);
    const holding = decoder.registers(CONTROLLER).holding;
    const words = new Map<number, number>();
    for (const entry of numbers) {
      const word = holding.u16(entry.register);
      if (word !== undefined) words.set(entry.register, word);
    }
    const snapshot = JSON.stringify([...words]);
    if (!device || words.size === 0 || snapshots.has(snapshot)) continue;
    snapshots.add(snapshot);
    const state = controlState(device, valuesFrom(map, words));
    for (const key of ranges.keys()) {
      const value = state[key];
      if (typeof value !== "number") continue;
      seen.set(key, (seen.get(key) ?? new Set()).add(value));
    }
  }
  return { seen, ranges };
}

const findings = new Map((Object.keys(CAPTURE_FILES) as CaptureName[]).map((name) => [name, replay(name)]));

describe("every real capture's values of the LAN's number entities lie within the entities' ranges", () => {
  it.each([...findings.keys()])("%s", (name) => {
    const { seen, ranges } = findings.get(name) as Finding;
    const outside = [...seen].flatMap(([key, values]) => {
      const range = ranges.get(key);
      return [...values]
        .filter((value) => !range || value < range.min || value > range.max)
        .map((value) => `${key}: ${value} outside ${range ? `${range.min}..${range.max}` : "no range"}`);
    });
    expect(outside).toEqual([]);
  });

  it("reads the values that ask the most of the ranges: an EMS's 9,500 W and a three-phase's 17,000 W export limit", () => {
    expect(findings.get("ems30")?.seen.get("grid_settings_export_limit_watts")).toEqual(new Set([9500]));
    expect(findings.get("threePhaseDetect")?.seen.get("grid_settings_export_limit_watts")).toEqual(new Set([17000]));
    const checked = [...findings.values()].reduce((total, { seen }) => total + seen.size, 0);
    expect(checked).toBeGreaterThan(50);
  });
});

/** Every model the LAN controls, with the firmware that changes its map. */
const MODELS: readonly [Model, number | undefined][] = [
  ["Hybrid Gen1", 449],
  ["Hybrid Gen2", 920],
  ["Hybrid Gen3", 302],
  ["Hybrid Gen3", 315],
  ["HV Hybrid Gen3", undefined],
  ["Hybrid Gen4", undefined],
  ["AC-coupled", 282],
  ["All-in-One", 612],
  ["Three-phase hybrid", undefined],
  ["Three-phase AC-coupled", undefined],
  ["EMS", 1036],
];

/** The controller the LAN would list for this model, with its controls. */
function lanDevice(model: Model, armFirmware: number | undefined): { device: Device; map: ControlMap } {
  const detected = { model, family: "unknown", from: "identity", ...(armFirmware ? { armFirmware } : {}) } as const;
  const controller = {
    kind: model === "EMS" ? "ems" : "inverter",
    serial: "XX0000X000",
    model,
    address: "0x11",
    state: {},
  } as const;
  const inventory = localInventory(
    [
      {
        index: 0,
        identified: { dongleSerial: "", detected, devices: [controller], roundTripMs: undefined },
        writable: true,
      },
    ],
    "UTC",
  );
  const device = inventory.ems[0] ?? inventory.inverters[0];
  if (!device) throw new Error(`no device for the ${model}`);
  return { device, map: controlMapOf(detected) };
}

/** What stops `value` on its way from the entity to the register: the gate's check, or the LAN's. */
function refusal(device: Device, map: ControlMap, key: string, value: number): string | undefined {
  const command = commandFor(device, key, String(value));
  if (!command.ok) return command.message;
  if (!("request" in command)) return "not a setting or preset";
  const { request } = command;
  if (device.kind !== "inverter" && device.kind !== "ems") return "not a controller";
  if (request.kind === "setting") {
    const descriptor = device.settings.find((setting) => setting.id === request.settingId);
    const check = descriptor ? checkSetting(descriptor, request.value) : { ok: false, reason: "not listed" };
    const entry = map.settings.get(request.settingId);
    if (!check.ok) return check.reason;
    return entry && checkValue(request.value, entry.rules).ok ? undefined : `the LAN refuses ${value}`;
  }
  if (request.kind !== "preset") return "not a setting or preset";
  const descriptor = findPreset(device.presets, request.preset);
  const problems = descriptor ? presetProblems(descriptor, request.fields) : "not listed";
  if (problems) return problems;
  const plan = lanPreset(request.preset)?.plan(map, request.fields);
  if (!plan || "error" in plan) return plan?.error ?? "no LAN preset";
  for (const write of plan.writes) {
    const entry = typeof write.id === "number" ? map.settings.get(write.id) : map.presetFields.get(write.id);
    if (!entry || !checkValue(write.value, entry.rules).ok)
      return `the LAN refuses ${String(write.id)} = ${write.value}`;
  }
  return undefined;
}

describe("the gate takes every value a LAN number entity offers", () => {
  it.each(MODELS)("%s (ARM %s): min and max of each number pass the gate's rules and the LAN's", (model, arm) => {
    const { device, map } = lanDevice(model, arm);
    const numbers = entitiesFor(device).filter((entity) => entity.component === "number");
    expect(numbers.length).toBeGreaterThan(0);
    const refused = numbers.flatMap((entity) =>
      [entity.min ?? Number.NaN, entity.max ?? Number.NaN].flatMap((value) => {
        const why = refusal(device, map, entity.key, value);
        return why ? [`${entity.key} = ${value}: ${why}`] : [];
      }),
    );
    expect(refused).toEqual([]);
  });
});
