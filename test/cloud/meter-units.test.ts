import { describe, expect, it } from "vitest";
import { IMPLIED_ENERGY_UNIT, IMPLIED_POWER_UNIT, normalised, toKwh, toW } from "../../src/cloud/meter-units.js";
import { METER_UNITS } from "../../src/cloud/schemas/ev-charger.js";

describe("charger meter units", () => {
  it("reads energy by its unit code: Wh is divided by 1000, kWh is kept", () => {
    expect(METER_UNITS[0]).toBe("Wh");
    expect(METER_UNITS[1]).toBe("kWh");
    expect(toKwh({ value: 1523456, unit: 0 })).toBe(1523.456);
    expect(toKwh({ value: 1523.456, unit: 1 })).toBe(1523.456);
  });

  it("reads power by its unit code: W is kept, kW is multiplied by 1000 without float noise", () => {
    expect(METER_UNITS[4]).toBe("W");
    expect(METER_UNITS[5]).toBe("kW");
    expect(toW({ value: 7200, unit: 4 })).toBe(7200);
    expect(toW({ value: 7.2, unit: 5 })).toBe(7200);
    expect(toW({ value: 1.1, unit: 5 })).toBe(1100);
  });

  it("takes a missing unit as Wh for energy and kW for power, as the evidence says", () => {
    expect(IMPLIED_ENERGY_UNIT).toBe("Wh");
    expect(IMPLIED_POWER_UNIT).toBe("kW");
    for (const unit of [null, undefined]) {
      expect(toKwh({ value: 12500, unit })).toBe(12.5);
      expect(toW({ value: 7.2, unit })).toBe(7200);
    }
  });

  it("converts nothing it cannot: another unit gives null", () => {
    // varh, kvarh, VA, A: not an active energy or power unit.
    for (const unit of [2, 3, 6, 10]) {
      expect(toKwh({ value: 5, unit })).toBeNull();
      expect(toW({ value: 5, unit })).toBeNull();
    }
    expect(toKwh({ value: 5, unit: 4 })).toBeNull();
    expect(toW({ value: 5, unit: 1 })).toBeNull();
  });

  it("keeps active energies in kWh and powers in W, everything else as sent under its unit's name", () => {
    expect(normalised({ measurand: 4, value: 1523456, unit: 0 })).toEqual({ value: 1523.456, unit: "kWh" });
    expect(normalised({ measurand: 3, value: 2.5, unit: 1 })).toEqual({ value: 2.5, unit: "kWh" });
    expect(normalised({ measurand: 8, value: 300, unit: null })).toEqual({ value: 0.3, unit: "kWh" });
    expect(normalised({ measurand: 13, value: 7.2, unit: 5 })).toEqual({ value: 7200, unit: "W" });
    expect(normalised({ measurand: 13, value: 6900, unit: 4 })).toEqual({ value: 6900, unit: "W" });
    expect(normalised({ measurand: 15, value: 7.4, unit: null })).toEqual({ value: 7400, unit: "W" });
    expect(normalised({ measurand: 21, value: 229.8, unit: 11 })).toEqual({ value: 229.8, unit: "V" });
    expect(normalised({ measurand: 11, value: 50.01, unit: null })).toEqual({ value: 50.01, unit: null });
    // Reactive energy is not converted; a unit that does not fit the measurand is kept as sent.
    expect(normalised({ measurand: 5, value: 900, unit: 2 })).toEqual({ value: 900, unit: "varh" });
    expect(normalised({ measurand: 4, value: 16, unit: 10 })).toEqual({ value: 16, unit: "A" });
  });
});
