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

describe("the energy a charger delivered, from its import register", () => {
  it("reads the register's rise within the span, and the status estimate before its first reading and after its last", () => {
    const ledger = new CarLedger();
    ledger.see("Charging", T0);
    ledger.meter(100, T0 + 0.25 * HOUR);
    // The car drew 5 kW, not the 7 kW planned: the register says so.
    ledger.meter(102.5, T0 + 0.75 * HOUR);
    ledger.meter(105, T0 + 1.25 * HOUR);
    // 15 minutes at 7 kW before the first reading, 5 kWh metered, 15 minutes after the last.
    expect(ledger.deliveredKwh(T0, T0 + 1.5 * HOUR, 7)).toBeCloseTo(1.75 + 5 + 1.75, 9);
    // Within two readings: only the register.
    expect(ledger.deliveredKwh(T0 + 0.25 * HOUR, T0 + 0.75 * HOUR, 7)).toBeCloseTo(2.5, 9);
  });

  it("falls back to the status estimate when the register went down (a charger reset) or was never read", () => {
    const reset = new CarLedger();
    reset.see("Charging", T0);
    reset.meter(100, T0 + 0.25 * HOUR);
    reset.meter(3, T0 + 0.5 * HOUR);
    reset.meter(101, T0 + 0.75 * HOUR);
    expect(reset.deliveredKwh(T0, T0 + HOUR, 7)).toBeCloseTo(7, 9);
    const unread = new CarLedger();
    unread.see("Charging", T0);
    expect(unread.deliveredKwh(T0, T0 + HOUR, 7)).toBeCloseTo(7, 9);
  });

  it("keeps readings in time order: one older than the last is ignored", () => {
    const ledger = new CarLedger();
    ledger.meter(10, T0 + HOUR);
    ledger.meter(5, T0 + 0.5 * HOUR);
    ledger.meter(12, T0 + 2 * HOUR);
    expect(ledger.deliveredKwh(T0 + HOUR, T0 + 2 * HOUR, 7)).toBeCloseTo(2, 9);
  });
});
