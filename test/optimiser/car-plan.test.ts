import { describe, expect, it } from "vitest";
import { type CarPlanInput, planAhead, planWithCar } from "../../src/optimiser/index.js";

const battery = {
  capacityKwh: 9.5,
  chargeKw: 3,
  dischargeKw: 3,
  chargeEfficiency: 0.95,
  dischargeEfficiency: 0.95,
  reservePercent: 4,
};
// Twelve half-hours: four cheap ones (slots 2 to 5), dear before and after.
const importPrices = [0.3, 0.3, 0.05, 0.06, 0.05, 0.06, 0.3, 0.3, 0.35, 0.35, 0.35, 0.35];
const base: CarPlanInput = {
  importPrices,
  exportPrices: importPrices.map(() => 0.04),
  load: importPrices.map(() => 0.25),
  solar: importPrices.map(() => 0),
  battery,
  socKwh: 1,
  changeCost: 0.002,
};
const car = { maxKw: 7, needKwh: 7, beforeSlot: 10 };

/** The slots where the battery charges from the grid (a charge slot that stores energy). */
function gridCharging(input: CarPlanInput, slots: readonly { mode: string; socKwh: number }[]): boolean[] {
  let before = input.socKwh;
  return slots.map((slot) => {
    const charges = slot.mode === "charge" && slot.socKwh > before + 1e-9;
    before = slot.socKwh;
    return charges;
  });
}

/** The peak import of each slot, kW, recomputed from the plan: the house's net load and the full power of what charges. */
function peaks(input: CarPlanInput, charging: readonly boolean[], carKwh: readonly number[]): number[] {
  return charging.map(
    (charges, t) =>
      ((input.load[t] as number) - (input.solar[t] as number)) / 0.5 +
      (charges ? battery.chargeKw : 0) +
      ((carKwh[t] as number) > 0 ? car.maxKw : 0),
  );
}

describe("the car and the battery in one plan under an import limit", () => {
  it("keeps every half-hour under the limit where planning each alone would go over it", () => {
    const limit = 10;
    // Each alone: the battery's own plan, and the car in the cheapest two half-hours.
    const alone = planAhead(base);
    const carAlone = planWithCar({ ...base, car });
    const carOnly = carAlone.carKwh.map((kwh, t) => (kwh > 0 ? t : -1)).filter((t) => t >= 0);
    const naive = peaks(base, gridCharging(base, alone.slots), carAlone.carKwh);
    expect(Math.max(...naive)).toBeGreaterThan(limit);
    expect(carOnly.every((t) => (importPrices[t] as number) <= 0.06)).toBe(true);

    const joint = planWithCar({ ...base, car, importLimitKw: limit });
    const charging = gridCharging(base, joint.schedule.slots);
    const recomputed = peaks(base, charging, joint.carKwh);
    expect(Math.max(...recomputed)).toBeLessThanOrEqual(limit + 1e-9);
    expect(joint.peakKw).toEqual(recomputed);
    expect(joint.met).toBe(true);
    expect(joint.carPlannedKwh).toBeCloseTo(7, 9);
    // Both still charge in the cheap half-hours, side by side instead of together.
    const carSlots = joint.carKwh.map((kwh, t) => (kwh > 0 ? t : -1)).filter((t) => t >= 0);
    const batterySlots = charging.map((charges, t) => (charges ? t : -1)).filter((t) => t >= 0);
    expect(carSlots.every((t) => t >= 2 && t <= 5)).toBe(true);
    expect(batterySlots.length).toBeGreaterThan(0);
    expect(batterySlots.filter((t) => carSlots.includes(t))).toEqual([]);
  });

  it("plans no car and leaves the battery's plan as it was when no car is plugged in", () => {
    const joint = planWithCar({ ...base, importLimitKw: 10 });
    expect(joint.carKwh.every((kwh) => kwh === 0)).toBe(true);
    expect(joint.schedule.slots.map((slot) => slot.mode)).toEqual(planAhead(base).slots.map((slot) => slot.mode));
  });

  it("counts surplus solar at the export price it would have earned, so the car takes it first", () => {
    const solar = importPrices.map((_, t) => (t === 8 ? 4 : 0));
    const joint = planWithCar({ ...base, solar, car: { maxKw: 7, needKwh: 3.5, beforeSlot: 10 } });
    expect(joint.carKwh.map((kwh, t) => (kwh > 0 ? t : -1)).filter((t) => t >= 0)).toEqual([8]);
  });

  it("keeps the house's margin free under the limit: a car that would fit beside the forecast alone waits", () => {
    // The house's forecast 0.5 kW plus 7 kW fits under 10 kW; with 2.5 kW kept for the house it does not.
    expect(planWithCar({ ...base, car, importLimitKw: 10, houseMarginKw: 2 }).met).toBe(true);
    const kept = planWithCar({ ...base, car, importLimitKw: 10, houseMarginKw: 2.6 });
    expect(kept.met).toBe(false);
    expect(kept.carPlannedKwh).toBe(0);
  });

  it("says the target is not met when too few half-hours fit before the deadline", () => {
    const joint = planWithCar({ ...base, car: { maxKw: 7, needKwh: 20, beforeSlot: 4 }, importLimitKw: 10 });
    expect(joint.met).toBe(false);
    expect(joint.carPlannedKwh).toBeCloseTo(14, 9);
  });
});
