import { describe, expect, it } from "vitest";
import { BatteryGuard, HV_MODULE, HV_STACK, LV_PACK } from "../../src/local/battery-guard.js";
import { type CapturedFrame, readCapture } from "../../src/local/capture.js";
import { ChainDecoder } from "../../src/local/decode.js";
import { buildResponse, parseFrame } from "../../src/local/frame.js";
import { type CaptureName, captureText } from "./captures.js";

/** Every IR 60-119 bank a capture's device at `address` answered with, in order. */
function banks(name: CaptureName, address: number): Map<number, number>[] {
  return readCapture(captureText(name))
    .frames.map(({ frame }) => frame)
    .filter((frame) => frame.kind === "response" && frame.function === 4 && frame.base === 60)
    .flatMap((frame) =>
      frame.kind === "response" && frame.address === address && frame.values.length === 60
        ? [new Map(frame.values.map((value, index) => [60 + index, value] as const))]
        : [],
    );
}

const with_ = (bank: ReadonlyMap<number, number>, changes: Record<number, number>): Map<number, number> =>
  new Map([...bank, ...Object.entries(changes).map(([register, value]) => [Number(register), value] as const)]);

const HV_CAPTURES = ["threePhaseDetect", "threePhase10", "threePhaseHass", "hvGen3", "aio612", "aio620"] as const;

describe("the battery guard on the HV stacks of the real captures", () => {
  it.each(HV_CAPTURES)("%s: every BMU and BCU bank passes, none is skipped, the stack decodes", (name) => {
    const decoder = new ChainDecoder().acceptAll(readCapture(captureText(name)).frames);
    expect(decoder.skips["battery-jump"]).toBe(0);
    expect(decoder.skips["battery-bounds"]).toBe(0);
    expect(decoder.devices().filter((device) => device.model.startsWith("HV battery")).length).toBeGreaterThan(0);
  });

  it("the three-phase plant's 21 reads of each module confirm a baseline and follow it", () => {
    for (const address of [0x50, 0x51, 0x52, 0x53, 0x54, 0x55]) {
      const guard = new BatteryGuard(HV_MODULE);
      const reads = banks("threePhaseDetect", address);
      expect(reads.length).toBeGreaterThan(15);
      expect(reads.map((bank) => guard.judge(bank).accept).every(Boolean)).toBe(true);
      expect(guard.confirmed).toBe(true);
    }
  });

  const [module] = banks("threePhaseDetect", 0x50);
  const [stack] = banks("threePhaseDetect", 0x70);
  if (!module || !stack) throw new Error("the three-phase capture has no BMU or BCU bank");

  it("a module's cells that jump together, or a cell no lithium cell can read, are rejected (each counted as its kind)", () => {
    const guard = new BatteryGuard(HV_MODULE);
    guard.judge(module);
    guard.judge(module);
    // Two cells 1 V higher in one read (3.309 V to 4.309 V): a corrupt bank, not physics.
    expect(guard.judge(with_(module, { 61: 4309, 62: 4309 }))).toMatchObject({
      accept: false,
      skip: "battery-jump",
    });
    expect(guard.judge(with_(module, { 70: 6553 }))).toMatchObject({ accept: false, skip: "battery-bounds" });
    // Temperatures: two sensors 20 °C apart in one read.
    expect(guard.judge(with_(module, { 90: 500, 91: 500 }))).toMatchObject({ accept: false, skip: "battery-jump" });
    // One cell stepping 5 mV is life.
    expect(guard.judge(with_(module, { 60: 3304 })).accept).toBe(true);
  });

  it("a stack's charge level beyond 100 %, or falling 50 points with its voltage in one read, is rejected", () => {
    const guard = new BatteryGuard(HV_STACK);
    guard.judge(stack);
    guard.judge(stack);
    // IR 80 keeps the charge level in its high byte: 94 % in the capture.
    expect((stack.get(80) ?? 0) >> 8).toBe(94);
    expect(guard.judge(with_(stack, { 80: 200 << 8 }))).toMatchObject({ accept: false, skip: "battery-bounds" });
    expect(guard.judge(with_(stack, { 80: 44 << 8, 73: 2000 }))).toMatchObject({ accept: false, skip: "battery-jump" });
    expect(guard.judge(with_(stack, { 80: 93 << 8 })).accept).toBe(true);
  });
});

describe("the battery guard on the LV packs of the real captures", () => {
  it("the AC-coupled plant's packs dropping every temperature to 0 for minutes are skipped as out of bounds, not published", () => {
    const decoder = new ChainDecoder();
    const temperatures: number[] = [];
    for (const { direction, frame, at } of readCapture(captureText("ac2x")).frames) {
      if (direction !== "rx") continue;
      decoder.accept(frame, at);
      const pack = decoder.devices().find((device) => device.address === "0x32");
      if (pack?.state.temperature !== undefined) temperatures.push(pack.state.temperature as number);
    }
    expect(decoder.skips["battery-bounds"]).toBe(8);
    expect(decoder.warnings.every((line) => /all read 0/.test(line))).toBe(true);
    expect(temperatures.length).toBeGreaterThan(50);
    expect(Math.min(...temperatures)).toBeGreaterThan(20);
  });
});

describe("a corrupt first read never becomes the baseline", () => {
  const [pack] = banks("hybrid60", 0x32);
  if (!pack) throw new Error("no pack bank in the hybrid capture");

  it("a garbled serial first: the next good read is held, the one after agrees with it and wins", () => {
    const guard = new BatteryGuard(LV_PACK);
    const garbled = with_(pack, { 110: 0x4141 });
    expect(guard.judge(garbled).accept).toBe(true);
    expect(guard.confirmed).toBe(false);
    expect(guard.judge(pack)).toMatchObject({ accept: false, skip: "battery-jump" });
    expect(guard.judge(pack).accept).toBe(true);
    expect(guard.confirmed).toBe(true);
    // Against the good baseline the garbled serial is now the outlier.
    expect(guard.judge(garbled).accept).toBe(false);
  });

  it("an empty slot is not judged, but a pack that answered does not turn into one: its serial lost is a changed constant", () => {
    const empty = new Map(Array.from({ length: 60 }, (_, index) => [60 + index, index === 0 ? 5 : 0] as const));
    const slot = new BatteryGuard(LV_PACK);
    expect([slot.judge(empty), slot.judge(empty)].map((verdict) => verdict.accept)).toEqual([true, true]);
    const guard = new BatteryGuard(LV_PACK);
    guard.judge(pack);
    guard.judge(pack);
    expect(guard.judge(with_(pack, { 110: 0, 111: 0, 112: 0, 113: 0, 114: 0 }))).toMatchObject({
      accept: false,
      skip: "battery-jump",
    });
  });

  it("a first read out of bounds is rejected outright, and the decoder shows the good pack", () => {
    const decoder = new ChainDecoder();
    const frame = (bank: ReadonlyMap<number, number>): CapturedFrame => ({
      direction: "rx",
      frame: parseFrame(
        buildResponse({
          dongleSerial: "WF0000G000",
          address: 0x32,
          function: 4,
          deviceSerial: "SA0000G000",
          base: 60,
          values: [...bank.values()],
        }),
      ),
    });
    decoder.acceptAll([frame(with_(pack, { 100: 250 })), frame(pack), frame(pack)]);
    expect(decoder.skips["battery-bounds"]).toBe(1);
    expect(decoder.registers(0x32).u16(100)).toBe(pack.get(100));
  });
});

describe("recovery after a genuine change", () => {
  const [pack] = banks("hybrid60", 0x32);
  if (!pack) throw new Error("no pack bank in the hybrid capture");

  it("a new BMS firmware (a fixed register) is accepted once it repeats in three consecutive reads", () => {
    const guard = new BatteryGuard(LV_PACK);
    guard.judge(pack);
    guard.judge(pack);
    const updated = with_(pack, { 98: (pack.get(98) ?? 0) + 1 });
    expect(guard.judge(updated)).toMatchObject({ accept: false, skip: "battery-jump" });
    expect(guard.judge(updated)).toMatchObject({ accept: false, skip: "battery-jump" });
    const third = guard.judge(updated);
    expect(third.accept).toBe(true);
    expect(third.reasons.join()).toMatch(/accepted after 3 agreeing reads/);
    expect(guard.judge(updated).accept).toBe(true);
    expect(guard.judge(pack).accept).toBe(false);
  });

  it("a run broken by a different value starts again", () => {
    const guard = new BatteryGuard(LV_PACK);
    guard.judge(pack);
    guard.judge(pack);
    const a = with_(pack, { 98: 0x1111 });
    const b = with_(pack, { 98: 0x2222 });
    expect([a, a, b, a, a].map((bank) => guard.judge(bank).accept)).toEqual([false, false, false, false, false]);
    expect(guard.judge(a).accept).toBe(true);
  });
});
