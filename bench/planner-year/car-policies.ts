import {
  type Battery,
  forecastLoad,
  forecastSolar,
  type HalfHourSample,
  type Mode,
  type PlanAheadInput,
  planAhead,
  planWithCar,
  type SlotAction,
} from "../../src/optimiser/index.js";
import { CAR, type CarYear } from "./car-profile.js";
import { type SlotClock, TIME_ZONE } from "./clock.js";
import type { Year } from "./data.js";
import { type Outcome, SLOT_HOURS, type Step, simulateSteps } from "./simulate.js";

/*
 * The car policies of `npm run bench -- car`. The battery runs the daemon's re-plan (planAhead,
 * published prices only, the house's forecasts from past data) every half-hour in each; what
 * differs is when the car charges and whether the battery's plan knows of it:
 * - arrival: the car charges at full power from when it is plugged in until it has what it needs;
 *   the battery's plan does not know of the car (it is a load the house forecast never saw);
 * - timer: the same, but the car charges only from 00:30 to 04:30 (a charger's overnight timer);
 * - joint: planWithCar, the car and the battery in one plan under the import limit.
 */

const HORIZON = 96;
const DAY = 48;

/** What a car policy decides for slot t. */
export interface CarDecision {
  readonly action: SlotAction;
  /** The charger is on (it stops by itself once the car has what it needs). */
  readonly carOn: boolean;
}

/** Decides slot t from the SoC and mode at its start and the energy the car still needs (0 when unplugged). */
export type CarDecide = (t: number, socKwh: number, mode: Mode, needKwh: number) => CarDecision;

export interface CarOutcome extends Outcome {
  /** Energy delivered to the car. */
  readonly carKwh: number;
  /** Energy the car still needed when it left. */
  readonly shortKwh: number;
  /** Half-hours whose peak import went over the limit (see simulateWithCar). */
  readonly overLimit: number;
  /** The highest peak import of the year, kW. */
  readonly peakKw: number;
  readonly solveMs: readonly number[];
}

/**
 * The year half-hour by half-hour with the real load, solar and car. A half-hour's peak import is
 * the house's real net load (mean over the half-hour) plus the full power of each thing that
 * charged from the grid in it: the car's charger, and the battery in a timed charge that stored
 * energy. It is over the limit when that exceeds it.
 */
export function simulateWithCar(
  year: Year,
  battery: Battery,
  initialSocKwh: number,
  car: CarYear,
  limitKw: number,
  policy: { decide: CarDecide; solveMs: readonly number[] },
): CarOutcome {
  let need = 0;
  let carKwh = 0;
  let shortKwh = 0;
  let overLimit = 0;
  let peakKw = 0;
  const charging: boolean[] = [];
  const step: Step = (t, soc, mode) => {
    if (car.departs[t]) {
      shortKwh += need;
      need = 0;
    }
    need += car.arrives[t] as number;
    const plugged = car.plugged[t] as boolean;
    const { action, carOn } = policy.decide(t, soc, mode, plugged ? need : 0);
    const charged = plugged && carOn ? Math.min(CAR.chargerKw * SLOT_HOURS, need) : 0;
    need -= charged;
    carKwh += charged;
    charging[t] = charged > 0;
    return { action, extraKwh: charged };
  };
  const outcome = simulateSteps(year, battery, initialSocKwh, step, ({ t, action, load, solar, energy }) => {
    const gridCharging = action.mode === "charge" && energy.chargedKwh > 0;
    const peak =
      (load - solar) / SLOT_HOURS + (gridCharging ? battery.chargeKw : 0) + (charging[t] ? CAR.chargerKw : 0);
    peakKw = Math.max(peakKw, peak);
    if (peak > limitKw + 1e-9) overLimit++;
  });
  return { ...outcome, carKwh, shortKwh: shortKwh + need, overLimit, peakKw, solveMs: policy.solveMs };
}

/** The house's load and solar forecasts at each half-hour, made once and shared by the policies. */
export function houseForecasts(year: Year): { load: number[][]; solar: number[][] } {
  const samples = (series: readonly number[]): HalfHourSample[] =>
    series.map((kwh, t) => ({ start: year.starts[t] as number, kwh }));
  const loadSamples = samples(year.load);
  const solarSamples = samples(year.solar);
  const load: number[][] = [];
  const solar: number[][] = [];
  for (let t = 0; t < year.starts.length; t++) {
    const options = { from: year.starts[t] as number, timeZone: TIME_ZONE, slots: HORIZON };
    load.push(forecastLoad(loadSamples.slice(Math.max(0, t - 28 * DAY), t), options));
    solar.push(forecastSolar(solarSamples.slice(Math.max(0, t - 14 * DAY), t), options));
  }
  return { load, solar };
}

interface Context {
  readonly year: Year;
  readonly clocks: readonly SlotClock[];
  readonly battery: Battery;
  readonly changeCost: number;
  readonly forecasts: { readonly load: readonly number[][]; readonly solar: readonly number[][] };
}

/** The re-plan's input at slot t: published prices only, up to the horizon. */
function planInput(context: Context, t: number, socKwh: number, mode: Mode): PlanAheadInput {
  const { year } = context;
  const end = Math.min((context.clocks[t] as SlotClock).knownUntil, t + HORIZON);
  const slots = end - t;
  return {
    importPrices: year.importPrice.slice(t, end),
    exportPrices: year.exportPrice.slice(t, end),
    load: (context.forecasts.load[t] as number[]).slice(0, slots),
    solar: (context.forecasts.solar[t] as number[]).slice(0, slots),
    battery: context.battery,
    socKwh,
    mode,
    changeCost: context.changeCost,
  };
}

const firstAction = (slot: { mode: Mode; targetKwh?: number } | undefined): SlotAction =>
  !slot ? { mode: "eco" } : slot.targetKwh === undefined ? { mode: slot.mode } : slot;

/** The battery's own re-plan, the car charging when `carOn` says. */
export function batteryAlone(context: Context, carOn: (t: number, needKwh: number) => boolean) {
  const solveMs: number[] = [];
  const decide: CarDecide = (t, socKwh, mode, needKwh) => {
    const schedule = planAhead(planInput(context, t, socKwh, mode));
    solveMs.push(schedule.solveMs);
    const first = schedule.slots[0];
    return { action: firstAction(first), carOn: needKwh > 0 && carOn(t, needKwh) };
  };
  return { decide, solveMs };
}

/** The car and the battery planned together under the import limit (planWithCar). */
export function jointPlan(context: Context, car: CarYear, limitKw: number, houseMarginKw: number) {
  const solveMs: number[] = [];
  const decide: CarDecide = (t, socKwh, mode, needKwh) => {
    const started = performance.now();
    const input = planInput(context, t, socKwh, mode);
    const plan = planWithCar({
      ...input,
      importLimitKw: limitKw,
      houseMarginKw,
      ...(needKwh > 0 ? { car: { maxKw: CAR.chargerKw, needKwh, beforeSlot: (car.deadline[t] as number) - t } } : {}),
    });
    solveMs.push(performance.now() - started);
    return { action: firstAction(plan.schedule.slots[0]), carOn: (plan.carKwh[0] ?? 0) > 0 };
  };
  return { decide, solveMs };
}

/** The charger's overnight timer, 00:30 to 04:30 local time. */
export const TIMER_WINDOW = { from: 30, to: 4 * 60 + 30, label: "00:30-04:30" } as const;
export const inTimer = (clock: SlotClock): boolean =>
  clock.minutes >= TIMER_WINDOW.from && clock.minutes < TIMER_WINDOW.to;
