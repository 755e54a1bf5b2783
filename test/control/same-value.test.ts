import { describe, expect, it } from "vitest";
import { containsValues, sameValue, slotsByNumber } from "../../src/control/same-value.js";

describe("sameValue", () => {
  it("compares the way the inverter stores values", () => {
    expect(sameValue(true, 1)).toBe(true);
    expect(sameValue("1", true)).toBe(true);
    expect(sameValue(false, 0)).toBe(true);
    expect(sameValue(false, "false")).toBe(false);
    expect(sameValue(20, "20")).toBe(true);
    expect(sameValue(20, 20.5)).toBe(false);
    expect(sameValue("05:30", "05:30:00")).toBe(true);
    expect(sameValue("5:30", "05:30")).toBe(true);
    expect(sameValue("05:30", "05:30:15")).toBe(false);
    expect(sameValue("05:30", 530)).toBe(false);
    expect(sameValue("Eco", "Eco")).toBe(true);
    expect(sameValue("Eco", "eco")).toBe(false);
    expect(sameValue(null, "")).toBe(false);
  });

  it("finds what was sent inside what was read", () => {
    const read = {
      enabled: 1,
      slots: slotsByNumber([{ start_time: "01:00:00", end_time: "04:30", percent_limit: 90 }, {}]),
    };
    expect(containsValues(read, { enabled: true, slots: slotsByNumber([{ start_time: "01:00" }]) })).toBe(true);
    expect(containsValues(read, { slots: { 1: { percent_limit: "90" } } })).toBe(true);
    expect(containsValues(read, { slots: { 2: { start_time: "01:00" } } })).toBe(false);
    expect(containsValues(read, { enabled: false })).toBe(false);
  });
});
