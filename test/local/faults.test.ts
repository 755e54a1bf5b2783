import { describe, expect, it } from "vitest";
import { readCapture } from "../../src/local/capture.js";
import { ChainDecoder } from "../../src/local/decode.js";
import { Registers } from "../../src/local/registers/bank.js";
import { decodeFaults, encodeFaults, FAULT_WORDS } from "../../src/local/registers/faults.js";
import type { Detected } from "../../src/local/registers/model.js";
import { RegisterFile } from "../../src/local/registers/register-file.js";
import {
  decodeThreePhaseFaults,
  encodeThreePhaseFaults,
  THREE_PHASE_FAULT_WORDS,
} from "../../src/local/registers/three-phase-faults.js";
import { liveReads } from "../../src/sources/local/reads.js";
import { captureText } from "./captures.js";

/** A controller's bank holding these raw words. */
function bank(holding: Record<number, number>, input: Record<number, number>): Registers {
  const file = new RegisterFile();
  for (const [register, word] of Object.entries(holding)) file.holdingSide.u16(Number(register), word);
  for (const [register, word] of Object.entries(input)) file.u16(Number(register), word);
  return new Registers(file);
}

describe("the inverter's fault and warning registers in words", () => {
  it("reads HR 223 as the high word of the fault bits and IR 57 least significant bit first", () => {
    // Bit 28 (HR 223 0x1000): backup overload; bit 2 (HR 224 0x0004): grid voltage; IR 57 bit 10: the BMS's link.
    expect(decodeFaults(bank({ 223: 0x1000, 224: 0x0004 }, { 57: 0x0400 }))).toEqual([
      "Backup overload",
      "Grid voltage fault",
      "Battery BMS communication lost",
    ]);
  });

  it("reads no faults as an empty list, and unread fault registers as no reading", () => {
    expect(decodeFaults(bank({ 223: 0, 224: 0 }, { 57: 0 }))).toEqual([]);
    expect(decodeFaults(bank({}, { 57: 0x0400 }))).toBeUndefined();
  });

  it("names a set bit the public sources do not as its number, so that no fault goes unseen", () => {
    expect(decodeFaults(bank({ 223: 0x8000, 224: 0 }, { 57: 0x0800 }))).toEqual([
      "Inverter fault bit 31",
      "Battery warning bit 11",
    ]);
  });

  it("writes back every word it reads (the simulator's side)", () => {
    for (const word of FAULT_WORDS) {
      const file = new RegisterFile();
      encodeFaults(file, [word]);
      expect(decodeFaults(new Registers(file)), word).toEqual([word]);
    }
    const file = new RegisterFile();
    encodeFaults(file, FAULT_WORDS);
    expect(decodeFaults(new Registers(file))?.sort()).toEqual([...FAULT_WORDS].sort());
    expect(new Set(FAULT_WORDS).size).toBe(FAULT_WORDS.length);
  });

  it("is read at every live poll of a single-phase inverter", () => {
    const hybrid: Detected = { model: "Hybrid Gen2", family: "single-phase", from: "identity" };
    expect(liveReads(hybrid)).toContainEqual({ address: 0x11, function: 3, base: 223, count: 2 });
  });
});

/** A three-phase controller's IR 1300-1307 holding these words (IR 1300 first). */
function threePhaseBank(words: readonly number[]): Registers {
  const file = new RegisterFile();
  for (const [index, word] of words.entries()) file.u16(1300 + index, word);
  return new Registers(file);
}

describe("a three-phase inverter's fault words (IR 1300-1307) in words", () => {
  it("reads each word least significant bit first, as givenergy-modbus checked against the installer app", () => {
    // IR 1303 bit 0: battery reversed; IR 1305 bit 0: DC injection; IR 1307 bit 14: the fan's warning.
    expect(decodeThreePhaseFaults(threePhaseBank([0, 0, 0, 0x0001, 0, 0x0001, 0, 0x4000]))).toEqual([
      "Battery reversed",
      "DC injection high",
      "Fan warning",
    ]);
    // IR 1300 bits 15 and 12: the grid's frequency, its phase 1 voltage; IR 1301 bit 15: no grid.
    expect(decodeThreePhaseFaults(threePhaseBank([0x9000, 0x8000, 0, 0, 0, 0, 0, 0]))).toEqual([
      "Grid frequency out of range",
      "Grid phase 1 voltage fault",
      "No grid connection",
    ]);
    expect(decodeThreePhaseFaults(threePhaseBank([0, 0, 0, 0, 0, 0, 0, 0]))).toEqual([]);
  });

  it("is unknown while any of IR 1300-1307 was not read, not none", () => {
    expect(decodeThreePhaseFaults(threePhaseBank([0, 0, 0, 0, 0, 0, 0]))).toBeUndefined();
  });

  it("names a set bit the public sources do not by its register and bit", () => {
    expect(decodeThreePhaseFaults(threePhaseBank([0x0002, 0, 0, 0, 0x0001, 0, 0, 0]))).toEqual([
      "Three-phase fault IR 1300 bit 1",
      "Three-phase fault IR 1304 bit 0",
    ]);
  });

  it("writes back every word it reads (the simulator's side), each word naming one bit", () => {
    for (const word of THREE_PHASE_FAULT_WORDS) {
      const file = new RegisterFile();
      encodeThreePhaseFaults(file, [word]);
      expect(decodeThreePhaseFaults(new Registers(file)), word).toEqual([word]);
    }
    expect(new Set(THREE_PHASE_FAULT_WORDS).size).toBe(THREE_PHASE_FAULT_WORDS.length);
  });

  it("reads none on the captured 11 kW three-phase hybrid, from the bank every live poll asks for", () => {
    const decoder = new ChainDecoder().acceptAll(readCapture(captureText("threePhaseDetect")).frames);
    const controller = decoder.devices().find((device) => device.address === "0x11");
    expect(controller?.model).toBe("Three-phase hybrid");
    expect(controller?.state.faults).toBe("");
    const threePhase: Detected = { model: "Three-phase hybrid", family: "three-phase", from: "identity" };
    expect(liveReads(threePhase)).toContainEqual({ address: 0x11, function: 4, base: 1300, count: 60 });
  });
});
