import type { Battery } from "./model.js";

/*
 * The optimiser's backward pass asks, at every slot and SoC grid point, what eco, hold, a full
 * charge and a full export cost plus the value where they land. That is slotEnergyInto and
 * slotCost (energy.ts) with the mode known in advance: the same arithmetic in the same order, so
 * the same figures to the last bit (test/optimiser/untargeted.test.ts checks them against it), without
 * the generic model's branches on the mode and its battery lookups, millions of times per year.
 */

const EPS = 1e-9;

/** The battery's figures every slot uses, worked out once per plan. */
export interface UntargetedBattery {
  readonly capacityKwh: number;
  readonly reserveKwh: number;
  readonly maxIn: number;
  readonly maxOut: number;
  readonly chargeEfficiency: number;
  readonly dischargeEfficiency: number;
  readonly exportCap: number;
}

export function untargetedBattery(battery: Battery, slotHours: number): UntargetedBattery {
  return {
    capacityKwh: battery.capacityKwh,
    reserveKwh: (battery.reservePercent / 100) * battery.capacityKwh,
    maxIn: battery.chargeKw * slotHours,
    maxOut: battery.dischargeKw * slotHours,
    chargeEfficiency: battery.chargeEfficiency,
    dischargeEfficiency: battery.dischargeEfficiency,
    exportCap: battery.exportLimitKw === undefined ? Number.POSITIVE_INFINITY : battery.exportLimitKw * slotHours,
  };
}

/** One slot's house and prices. */
export interface UntargetedSlot {
  readonly load: number;
  readonly solar: number;
  readonly importPrice: number;
  readonly exportPrice: number;
}

/** Linear interpolation of the value of mode `mode` at stored energy `soc` (optimise.ts's valueAt). */
export function interpolate(values: Float64Array, points: number, step: number, mode: number, soc: number): number {
  const x = soc / step;
  const base = mode * points;
  const lo = Math.floor(x + EPS);
  if (lo >= points - 1) return values[base + points - 1] as number;
  if (lo < 0) return values[base] as number;
  const frac = x - lo;
  const low = values[base + lo] as number;
  if (frac < EPS) return low;
  return low + ((values[base + lo + 1] as number) - low) * frac;
}

/** The slot's cost with `charged` in and `discharged` out of the battery (slotEnergyInto's grid and slotCost). */
function cost(b: UntargetedBattery, slot: UntargetedSlot, charged: number, discharged: number): number {
  const grid = slot.load - slot.solar + charged - discharged;
  const importKwh = grid > 0 ? grid : 0;
  const exportKwh = grid < 0 ? Math.min(-grid, b.exportCap) : 0;
  return importKwh * slot.importPrice - exportKwh * slot.exportPrice;
}

function landing(b: UntargetedBattery, soc: number, charged: number, discharged: number): number {
  return soc + charged * b.chargeEfficiency - discharged / b.dischargeEfficiency;
}

/**
 * Eco's and hold's totals from grid point `index`, into out[0] and out[1]: the cost plus the
 * value of the mode where the slot leaves the battery (`next`: the values after the slot).
 */
export function ecoAndHold(
  b: UntargetedBattery,
  slot: UntargetedSlot,
  next: Float64Array,
  points: number,
  step: number,
  index: number,
  out: Float64Array,
): void {
  const soc = index * step;
  const surplus = slot.solar - slot.load;
  if (surplus > 0) {
    // Both take the surplus in: the same energy, each mode's own value after.
    const room = Math.max(0, b.capacityKwh - soc) / b.chargeEfficiency;
    const charged = Math.min(surplus, b.maxIn, room);
    const paid = cost(b, slot, charged, 0);
    const after = landing(b, soc, charged, 0);
    out[0] = paid + interpolate(next, points, step, 0, after);
    out[1] = paid + interpolate(next, points, step, 1, after);
    return;
  }
  const discharged = Math.min(-surplus, b.maxOut, Math.max(0, soc - b.reserveKwh) * b.dischargeEfficiency);
  out[0] = cost(b, slot, 0, discharged) + interpolate(next, points, step, 0, landing(b, soc, 0, discharged));
  // A hold with nothing to take in stays on its grid point: interpolate would answer that point's value.
  out[1] = cost(b, slot, 0, 0) + (next[points + index] as number);
}

/** A full-power charge to full: its total from stored energy `soc`. */
export function fullCharge(
  b: UntargetedBattery,
  slot: UntargetedSlot,
  next: Float64Array,
  points: number,
  step: number,
  soc: number,
): number {
  const charged = Math.min(b.maxIn, Math.max(0, b.capacityKwh - soc) / b.chargeEfficiency);
  return cost(b, slot, charged, 0) + interpolate(next, points, step, 2, landing(b, soc, charged, 0));
}

/** A full-power export down to the reserve: its total from stored energy `soc`. */
export function fullExport(
  b: UntargetedBattery,
  slot: UntargetedSlot,
  next: Float64Array,
  points: number,
  step: number,
  soc: number,
): number {
  const discharged = Math.min(b.maxOut, Math.max(0, soc - b.reserveKwh) * b.dischargeEfficiency);
  return cost(b, slot, 0, discharged) + interpolate(next, points, step, 3, landing(b, soc, 0, discharged));
}
