import { describe, expect, it } from "vitest";
import { CarLedger } from "../../src/rules/engine/car-ledger.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 14, 22, 0);

describe("the energy a charger delivered, from its status", () => {
  it("counts the time it reported Charging at the planned power, within the span asked for", () => {
    const ledger = new CarLedger();
    ledger.see("Preparing", T0);
    ledger.see("Charging", T0 + HOUR);
    ledger.see("Charging", T0 + 1.5 * HOUR);
    ledger.see("SuspendedEV", T0 + 2 * HOUR);
    ledger.see("Charging", T0 + 3 * HOUR);
    // One hour done and half an hour under way at 7 kW.
    expect(ledger.deliveredKwh(T0, T0 + 3.5 * HOUR, 7)).toBeCloseTo(10.5, 9);
    // From the middle of the first hour: its second half only, and the half-hour under way.
    expect(ledger.deliveredKwh(T0 + 1.5 * HOUR, T0 + 3.5 * HOUR, 7)).toBeCloseTo(7, 9);
    expect(ledger.deliveredKwh(T0 + 4 * HOUR, T0 + 3.5 * HOUR, 7)).toBe(0);
  });
});
