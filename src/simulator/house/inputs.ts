import { dateOfDayNumber, utcMsOfLocal } from "../../time/index.js";
import { MODE_BATTERY_FAULT, MODE_COMMS_LOST, MODE_NORMAL, MODE_OFF, MODE_TRIPPED } from "./dispatch.js";
import { type Fault, faultsOfDay } from "./faults.js";
import { type DayFrame, fillLocalMinutes, MAX_STEPS, STEP_MS } from "./frame.js";
import { fillLoad } from "./load.js";
import { clearSkyPower, fillClearSky, solarDay } from "./solar.js";
import type { HouseContext } from "./spec.js";
import { CLOUD_KNOT_MINUTES, clearness, cloudKnots } from "./weather.js";

/** A day's drivers, which do not depend on settings: PV available, load, fault mode, local minute. */
export class DayInputs {
  readonly pvW = new Float32Array(MAX_STEPS);
  readonly loadW = new Float32Array(MAX_STEPS);
  readonly mode = new Uint8Array(MAX_STEPS);
  readonly minute = new Uint16Array(MAX_STEPS);
}

const knots = new Float64Array(Math.ceil(MAX_STEPS / CLOUD_KNOT_MINUTES) + 2);

/** Faults that start on a local day and after commissioning. */
export function faultsStartingOn(context: HouseContext, day: number): Fault[] {
  const startMs = utcMsOfLocal(dateOfDayNumber(day), "00:00", context.timezone);
  return faultsOfDay(context.seed, day, startMs, context.faultsPerMonth, context.plant.capacityWh > 0).filter(
    (fault) => fault.startMs >= context.commissionMs,
  );
}

const MODE_OF_EFFECT = { trip: MODE_TRIPPED, battery: MODE_BATTERY_FAULT, comms: MODE_COMMS_LOST } as const;
/** When faults overlap, the one that stops most wins. */
const PRIORITY = [0, 3, 2, 1, 4];

export function fillInputs(context: HouseContext, frame: DayFrame, inputs: DayInputs): void {
  const { steps, day, startMs } = frame;
  fillLocalMinutes(frame, context.timezone, inputs.minute);
  fillLoad(context.seed, day, context.annualLoadKwh, context.latitude, inputs.minute, steps, inputs.loadW);

  const knotCount = Math.ceil(steps / CLOUD_KNOT_MINUTES) + 1;
  cloudKnots(context.seed, day, context.latitude, knots, knotCount);
  for (let knot = 0; knot < knotCount; knot++) knots[knot] = clearness(knots[knot] ?? 0);
  fillClearSky(context.site, solarDay(day), startMs, STEP_MS, steps, inputs.pvW);
  for (let step = 0; step < steps; step++) {
    const clear = inputs.pvW[step] ?? 0;
    if (clear === 0) continue;
    const knot = Math.floor(step / CLOUD_KNOT_MINUTES);
    const fraction = (step - knot * CLOUD_KNOT_MINUTES) / CLOUD_KNOT_MINUTES;
    inputs.pvW[step] = clear * ((knots[knot] ?? 1) * (1 - fraction) + (knots[knot + 1] ?? 1) * fraction);
  }

  inputs.mode.fill(MODE_NORMAL, 0, steps);
  const commissionStep = Math.ceil((context.commissionMs - startMs) / STEP_MS);
  if (commissionStep > 0) inputs.mode.fill(MODE_OFF, 0, Math.min(steps, commissionStep));
  for (const fault of [...faultsStartingOn(context, day - 1), ...faultsStartingOn(context, day)]) {
    const mode = MODE_OF_EFFECT[fault.effect];
    const from = Math.max(0, Math.floor((fault.startMs - startMs) / STEP_MS));
    const to = Math.min(steps, Math.ceil((fault.endMs - startMs) / STEP_MS));
    for (let step = from; step < to; step++) {
      if ((PRIORITY[mode] ?? 0) > (PRIORITY[inputs.mode[step] ?? 0] ?? 0)) inputs.mode[step] = mode;
    }
  }
}

/** Clear-sky share of each array at an instant, for splitting a PV total across arrays. */
export function arrayShares(context: HouseContext, day: number, ms: number): number[] {
  const count = context.site.arrays.length;
  if (count <= 1) return count === 1 ? [1] : [];
  const out = new Float64Array(count);
  const total = clearSkyPower(context.site, solarDay(day), ms, out);
  return Array.from(out, (watts) => (total > 0 ? watts / total : 1 / Math.max(1, count)));
}
