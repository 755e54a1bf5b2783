import type { Battery, Mode } from "./model.js";

/**
 * The energy model of one slot under each mode, shared by the optimiser and the benchmark's
 * simulation so that what is planned and what is simulated agree. All energies are kWh in the slot.
 *
 * - eco: the battery serves the house's shortfall (down to the reserve) and takes surplus solar.
 * - hold: pause discharge (GivEnergy pause mode 2): surplus solar still charges, nothing discharges.
 * - charge (timed charge): the battery charges at full power from the grid up to the target; the
 *   house runs on solar then grid, surplus solar is exported.
 * - export (timed export): the battery discharges at full power down to the target (never below the
 *   reserve); the house is served first, the rest is exported.
 * Exports above the export limit are curtailed (lost). The power limits are on the AC side.
 */
export interface SlotResult {
  /** Stored energy at the end, kWh. */
  socKwh: number;
  importKwh: number;
  exportKwh: number;
  /** AC energy into the battery. */
  chargedKwh: number;
  /** AC energy out of the battery. */
  dischargedKwh: number;
}

export function slotEnergy(
  battery: Battery,
  slotHours: number,
  mode: Mode,
  socKwh: number,
  loadKwh: number,
  solarKwh: number,
  targetKwh?: number,
): SlotResult {
  const out: SlotResult = { socKwh: 0, importKwh: 0, exportKwh: 0, chargedKwh: 0, dischargedKwh: 0 };
  slotEnergyInto(out, battery, slotHours, mode, socKwh, loadKwh, solarKwh, targetKwh);
  return out;
}

/** slotEnergy written into `out` (the optimiser's backward pass calls it millions of times per plan). */
export function slotEnergyInto(
  out: SlotResult,
  battery: Battery,
  slotHours: number,
  mode: Mode,
  socKwh: number,
  loadKwh: number,
  solarKwh: number,
  targetKwh?: number,
): void {
  const reserve = (battery.reservePercent / 100) * battery.capacityKwh;
  const maxIn = battery.chargeKw * slotHours;
  const maxOut = battery.dischargeKw * slotHours;
  const room = Math.max(0, battery.capacityKwh - socKwh) / battery.chargeEfficiency;
  const surplus = solarKwh - loadKwh;
  let charged = 0;
  let discharged = 0;
  if (mode === "charge") {
    const target = Math.min(battery.capacityKwh, targetKwh ?? battery.capacityKwh);
    charged = Math.min(maxIn, Math.max(0, target - socKwh) / battery.chargeEfficiency);
  } else if (mode === "export") {
    const floor = Math.max(reserve, targetKwh ?? reserve);
    discharged = Math.min(maxOut, Math.max(0, socKwh - floor) * battery.dischargeEfficiency);
  } else if (surplus > 0) {
    charged = Math.min(surplus, maxIn, room);
  } else if (mode === "eco") {
    discharged = Math.min(-surplus, maxOut, Math.max(0, socKwh - reserve) * battery.dischargeEfficiency);
  }
  const grid = loadKwh - solarKwh + charged - discharged;
  const exportCap = battery.exportLimitKw === undefined ? Number.POSITIVE_INFINITY : battery.exportLimitKw * slotHours;
  out.socKwh = socKwh + charged * battery.chargeEfficiency - discharged / battery.dischargeEfficiency;
  out.importKwh = grid > 0 ? grid : 0;
  out.exportKwh = grid < 0 ? Math.min(-grid, exportCap) : 0;
  out.chargedKwh = charged;
  out.dischargedKwh = discharged;
}

/** Import cost less export income of a slot's result. */
export function slotCost(result: SlotResult, importPrice: number, exportPrice: number): number {
  return result.importKwh * importPrice - result.exportKwh * exportPrice;
}
