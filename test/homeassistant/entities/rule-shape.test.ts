import { describe, expect, it } from "vitest";
import { ruleShape } from "../../../src/homeassistant/entities/rule-shape.js";

describe("ruleShape: a number's step", () => {
  it("is 1 for a whole number, and the device's own step where its rules give one", () => {
    expect(ruleShape(["between:0,3600"])).toEqual({ component: "number", min: 0, max: 3600, step: 1 });
    // The LAN's battery power limit on a 9.5 kWh pack: HR 111 in hundredths of C, 95 W a word.
    expect(ruleShape(["between:0,4750", "multiple_of:95"])).toEqual({
      component: "number",
      min: 0,
      max: 4750,
      step: 95,
    });
  });
});
