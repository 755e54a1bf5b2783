import { describe, expect, it } from "vitest";
import { CurrentLimits } from "../../../src/sources/ocpp/current-limits.js";

describe("the current limits the daemon set over OCPP", () => {
  it("knows none until one is set", () => {
    const limits = new CurrentLimits();
    expect(limits.inForce("CP-1", undefined)).toBeUndefined();
    expect(limits.forNewSession("CP-1")).toBeUndefined();
  });

  it("takes a session's own limit while that transaction runs, and the one for every session otherwise", () => {
    const limits = new CurrentLimits();
    limits.setForEverySession("CP-1", 32);
    limits.setForSession("CP-1", 7, 21);
    expect(limits.inForce("CP-1", 7)).toBe(21);
    // The session's profile ended with its transaction: the next session starts at the default.
    expect(limits.inForce("CP-1", undefined)).toBe(32);
    expect(limits.inForce("CP-1", 8)).toBe(32);
    expect(limits.forNewSession("CP-1")).toBe(32);
    // Each charge point its own.
    expect(limits.inForce("CP-2", 7)).toBeUndefined();
  });
});
