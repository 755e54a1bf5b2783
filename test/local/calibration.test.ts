import { describe, expect, it } from "vitest";
import { Registers } from "../../src/local/registers/bank.js";
import { calibrationOf } from "../../src/local/registers/calibration.js";

const holding = (words: Record<number, number>) =>
  new Registers({ holding: new Map(Object.entries(words).map(([at, word]) => [Number(at), word])), input: new Map() })
    .holding;

describe("HR 29, the battery calibration stage", () => {
  it("reads each stage of the public map, an unnamed word as unknown, and nothing when unread", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((word) => calibrationOf(holding({ 29: word })))).toEqual([
      "off",
      "discharge",
      "set lower limit",
      "charge",
      "set upper limit",
      "balance",
      "set full capacity",
      "finish",
    ]);
    expect(calibrationOf(holding({ 29: 9 }))).toBe("unknown");
    expect(calibrationOf(holding({ 28: 0 }))).toBeUndefined();
  });
});
