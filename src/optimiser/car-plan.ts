import type { Battery, Schedule } from "./model.js";
import { type PlanAheadInput, planAhead } from "./plan-ahead.js";

/*
 * The car and the battery in one plan, under one import limit. A dynamic program with the car's
 * energy as a second dimension would multiply the battery's state by the car's, so the plan
 * iterates instead: the car takes the cheapest half-hours before its deadline that fit under the
 * limit with the house's forecast load (surplus solar counts at the export price it would have
 * earned); the battery is then planned with the car added to the house's load and its grid
 * charging allowed only where it fits beside the car; the car is chosen again around the
 * battery's charging, and the battery planned once more. Chargers and inverters here run at full
 * power or not at all (a timed charge has no power setting), so a half-hour fits when the full
 * powers drawn together with the house's forecast load stay within the limit; where the battery's
 * would not fit, the battery's plan may not put it in charge mode at all.
 */

/** What the car needs. */
export interface CarNeed {
  /** The charger's power while it charges, kW. */
  readonly maxKw: number;
  /** Energy still to deliver to the car, kWh (as the charger meters it). */
  readonly needKwh: number;
  /** The car may charge in slots 0 up to (not including) this one: its deadline is this slot's start. */
  readonly beforeSlot: number;
}

export interface CarPlanInput extends PlanAheadInput {
  /** Left out: no car plugged in, or nothing to deliver. */
  readonly car?: CarNeed;
  /** The most the site may import, kW, shared by the house, the battery's grid charging and the car. */
  readonly importLimitKw?: number;
  /** kW the house may draw above its forecast half-hour mean, kept free under the limit; 0 when left out. */
  readonly houseMarginKw?: number;
}

export interface CarPlan {
  readonly schedule: Schedule;
  /** Per slot, the car's planned energy (kWh; 0 when it does not charge). */
  readonly carKwh: readonly number[];
  /** Energy the car's slots deliver, at most what it needs. */
  readonly carPlannedKwh: number;
  /** True when the car gets all it needs before its deadline. */
  readonly met: boolean;
  /** Per slot, the highest import expected, kW: the house's forecast load and margin (no solar) plus the full power of what charges. */
  readonly peakKw: readonly number[];
}

const SLOT_HOURS = 0.5;
const EPS = 1e-9;

export function planWithCar(input: CarPlanInput): CarPlan {
  const slots = input.importPrices.length;
  const noBattery = new Array<number>(slots).fill(0);
  const first = chooseCarSlots(input, noBattery);
  const firstSchedule = planBattery(input, first);
  const second = chooseCarSlots(input, batteryGridKw(firstSchedule, input.battery, input.socKwh));
  // The same car half-hours as before give the same battery plan.
  const same = second.kwh.every((kwh, t) => kwh === first.kwh[t]);
  const schedule = same ? firstSchedule : planBattery(input, second);
  const charging = batteryGridKw(schedule, input.battery, input.socKwh);
  const carKw = input.car?.maxKw ?? 0;
  const peakKw = Array.from(
    { length: slots },
    (_, t) => houseKw(input, t) + (charging[t] as number) + ((second.kwh[t] as number) > 0 ? carKw : 0),
  );
  return { schedule, carKwh: second.kwh, carPlannedKwh: second.planned, met: second.met, peakKw };
}

/**
 * The house's forecast load in slot t with the margin kept for it, kW. Solar is not counted against the limit: a cloud takes
 * it away within seconds, and a fuse does not wait for the half-hour's mean.
 */
function houseKw(input: CarPlanInput, t: number): number {
  return (input.load[t] ?? 0) / SLOT_HOURS + (input.houseMarginKw ?? 0);
}

/** Per slot, the battery's grid-charging power: full power in a charge slot that stores energy (its peak), else none. */
function batteryGridKw(schedule: Schedule, battery: Battery, startKwh: number): number[] {
  let before = startKwh;
  return schedule.slots.map((slot) => {
    const charges = slot.mode === "charge" && slot.socKwh > before + EPS;
    before = slot.socKwh;
    return charges ? battery.chargeKw : 0;
  });
}

interface CarSlots {
  readonly kwh: number[];
  readonly planned: number;
  readonly met: boolean;
}

/** The cheapest half-hours before the deadline that fit under the limit beside the battery's charging. */
function chooseCarSlots(input: CarPlanInput, batteryKw: readonly number[]): CarSlots {
  const slots = input.importPrices.length;
  const kwh = new Array<number>(slots).fill(0);
  const car = input.car;
  if (!car || car.needKwh <= EPS) return { kwh, planned: 0, met: true };
  const full = car.maxKw * SLOT_HOURS;
  const limit = input.importLimitKw ?? Number.POSITIVE_INFINITY;
  const open: { t: number; price: number }[] = [];
  for (let t = 0; t < Math.min(slots, car.beforeSlot); t++) {
    if (houseKw(input, t) + (batteryKw[t] as number) + car.maxKw > limit + EPS) continue;
    // Surplus solar the car takes would have been exported: it costs the export price.
    const surplus = Math.max(0, (input.solar[t] ?? 0) - (input.load[t] ?? 0));
    const fromSolar = Math.min(surplus, full);
    const cost = fromSolar * (input.exportPrices[t] as number) + (full - fromSolar) * (input.importPrices[t] as number);
    open.push({ t, price: cost / full });
  }
  // Equal prices take the later slot, as the other planners do: the car is charged close to when it leaves.
  open.sort((a, b) => a.price - b.price || b.t - a.t);
  let left = car.needKwh;
  for (const { t } of open) {
    if (left <= EPS) break;
    const energy = Math.min(full, left);
    kwh[t] = energy;
    left -= energy;
  }
  return { kwh, planned: car.needKwh - Math.max(0, left), met: left <= EPS };
}

/** The battery's plan with the car added to the load and no grid charging where it would not fit under the limit. */
function planBattery(input: CarPlanInput, car: CarSlots): Schedule {
  const limit = input.importLimitKw;
  const carKw = input.car?.maxKw ?? 0;
  const load = input.importPrices.map((_, t) => (input.load[t] ?? 0) + (car.kwh[t] as number));
  const noGridCharge =
    limit === undefined
      ? undefined
      : input.importPrices.map(
          (_, t) => houseKw(input, t) + ((car.kwh[t] as number) > 0 ? carKw : 0) + input.battery.chargeKw > limit + EPS,
        );
  return planAhead({ ...input, load, ...(noGridCharge ? { noGridCharge } : {}) });
}
