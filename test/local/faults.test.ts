import { describe, expect, it } from "vitest";
import { Registers } from "../../src/local/registers/bank.js";
import { decodeFaults, encodeFaults, FAULT_WORDS } from "../../src/local/registers/faults.js";
import type { Detected } from "../../src/local/registers/model.js";
import { RegisterFile } from "../../src/local/registers/register-file.js";
import { liveReads } from "../../src/sources/local/reads.js";

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
