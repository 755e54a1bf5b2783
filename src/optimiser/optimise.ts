import { type SlotResult, slotCost, slotEnergyInto } from "./energy.js";
import {
  MODES,
  type Mode,
  type OptimiseInput,
  type OptimiseOptions,
  optimiseInputSchema,
  type PlannedSlot,
  type Schedule,
} from "./model.js";
import { kindOf, RunsOfKind, type StepRun, targetMinima, type WindowScratch, windowScratch } from "./target-minima.js";
import {
  ecoAndHold,
  fullCharge,
  fullExport,
  interpolate,
  type UntargetedBattery,
  untargetedBattery,
} from "./untargeted.js";

/*
 * An exact dynamic program over stored energy. The SoC axis is a grid of N + 1 points from empty
 * to full; the state is (slot, mode the inverter is in, SoC). Working backwards, the value of a
 * state is the least cost from there to the end, less what the energy left at the end is worth.
 * Charge and export actions pick a target SoC on the grid (what the inverter's percent limit
 * does), or run at full power; eco and hold land wherever the house's load and solar take them,
 * and the value there is interpolated linearly between grid points. The forward pass starts at
 * the true SoC (off the grid too) and takes, slot by slot, the action the values say is best.
 */

const MODE_COUNT = MODES.length;
const MODE_INDEX: Readonly<Record<Mode, number>> = { eco: 0, hold: 1, charge: 2, export: 3 };
const EPS = 1e-9;

interface Grid {
  readonly points: number;
  readonly step: number;
}

interface Choice {
  readonly mode: Mode;
  readonly targetKwh: number | undefined;
  readonly result: SlotResult;
  readonly cost: number;
  /** cost + change + value after. */
  readonly total: number;
}

/** The least-cost schedule of modes over the slots given. */
export function optimise(input: OptimiseInput): Schedule {
  const options = optimiseInputSchema.parse(input);
  const started = performance.now();
  const grid = gridOf(options);
  const values = solveValues(options, grid);
  const slots: PlannedSlot[] = [];
  let soc = Math.min(options.socKwh, options.battery.capacityKwh);
  let mode = options.mode;
  let expectedCost = 0;
  let modeChanges = 0;
  for (let t = 0; t < options.importPrices.length; t++) {
    const choice = bestChoice(options, grid, values, t, soc, mode);
    if (choice.mode !== mode) {
      modeChanges++;
      expectedCost += options.changeCost;
    }
    expectedCost += choice.cost;
    soc = choice.result.socKwh;
    mode = choice.mode;
    slots.push({
      mode: choice.mode,
      ...(choice.targetKwh === undefined ? {} : { targetKwh: choice.targetKwh }),
      socKwh: soc,
      importKwh: choice.result.importKwh,
      exportKwh: choice.result.exportKwh,
      cost: choice.cost,
    });
  }
  return { slots, expectedCost, modeChanges, solveMs: performance.now() - started };
}

function gridOf(options: OptimiseOptions): Grid {
  const intervals = Math.max(1, Math.ceil(options.battery.capacityKwh / options.socStepKwh - EPS));
  return { points: intervals + 1, step: options.battery.capacityKwh / intervals };
}

/**
 * The value tables' storage, kept between plans: a plan's tables are read only within its own
 * optimise call, and a backtest makes one plan per half-hour of a year.
 */
let storage = new Float64Array(0);

/** values[t] holds, per mode and grid point, the least cost from slot t on; values[T] the terminal value. */
function solveValues(options: OptimiseOptions, grid: Grid): Float64Array[] {
  const slots = options.importPrices.length;
  const { points, step } = grid;
  const size = MODE_COUNT * points;
  if (storage.length < (slots + 1) * size) storage = new Float64Array((slots + 1) * size);
  const values: Float64Array[] = new Array(slots + 1);
  for (let t = 0; t <= slots; t++) values[t] = storage.subarray(t * size, (t + 1) * size);
  const last = values[slots] as Float64Array;
  for (let m = 0; m < MODE_COUNT; m++) {
    for (let i = 0; i < points; i++) last[m * points + i] = -options.terminalValue * i * step;
  }
  const { chargeEnd, exportEnd } = targetReach(options, grid);
  const steps = stepBuffers(options, grid);
  const ecoHold = new Float64Array(2);
  const targets: TargetTotals = {
    charge: new Float64Array(points),
    export: new Float64Array(points),
    scratch: windowScratch(points),
  };
  const battery = untargetedBattery(options.battery, options.slotHours);
  const { changeCost } = options;
  for (let t = slots - 1; t >= 0; t--) {
    const next = values[t + 1] as Float64Array;
    const here = values[t] as Float64Array;
    stepCosts(options, battery, grid, t, steps);
    const chargeOpen = !options.noGridCharge?.[t];
    if (chargeOpen)
      targetMinima(
        1,
        steps.charge,
        steps.chargeRuns,
        next,
        2 * points,
        chargeEnd,
        points,
        targets.scratch,
        targets.charge,
      );
    targetMinima(
      -1,
      steps.discharge,
      steps.dischargeRuns,
      next,
      3 * points,
      exportEnd,
      points,
      targets.scratch,
      targets.export,
    );
    const slot: SlotPrices = {
      load: options.load[t] as number,
      solar: options.solar[t] as number,
      importPrice: options.importPrices[t] as number,
      exportPrice: options.exportPrices[t] as number,
    };
    for (let i = 0; i < points; i++) {
      const soc = i * step;
      ecoAndHold(battery, slot, next, points, step, i, ecoHold);
      const eco = ecoHold[0] as number;
      const hold = ecoHold[1] as number;
      // Charge and export to a grid target come worked out for the whole slot (target-minima.ts);
      // full power goes through the energy model, as eco and hold do (untargeted.ts).
      let charge = Number.POSITIVE_INFINITY;
      if (chargeOpen && (chargeEnd[i] as number) > 0) {
        const full = fullCharge(battery, slot, next, points, step, soc);
        const target = targets.charge[i] as number;
        charge = target < full ? target : full;
      }
      let discharge = Number.POSITIVE_INFINITY;
      if ((exportEnd[i] as number) > 0) {
        const full = fullExport(battery, slot, next, points, step, soc);
        const target = targets.export[i] as number;
        discharge = target < full ? target : full;
      }
      const changed = Math.min(Math.min(Math.min(eco, hold), charge), discharge) + changeCost;
      here[i] = Math.min(eco, changed);
      here[points + i] = Math.min(hold, changed);
      here[2 * points + i] = Math.min(charge, changed);
      here[3 * points + i] = Math.min(discharge, changed);
    }
  }
  return values;
}

/**
 * Per grid point, where its grid targets end: chargeEnd[i] is the first step k past the reach of
 * a charge from point i (0: charge closed, the battery is full), exportEnd[i] the same for export
 * (0: at or below the reserve). They depend on the SoC alone, so they are worked out once per plan.
 */
interface TargetReach {
  readonly chargeEnd: Int32Array;
  readonly exportEnd: Int32Array;
}

function targetReach(options: OptimiseOptions, grid: Grid): TargetReach {
  const { battery, slotHours } = options;
  const { chargeSteps, dischargeSteps } = stepCounts(options, grid);
  const reserve = (battery.reservePercent / 100) * battery.capacityKwh;
  const chargeEnd = new Int32Array(grid.points);
  const exportEnd = new Int32Array(grid.points);
  for (let index = 0; index < grid.points; index++) {
    const soc = index * grid.step;
    if (soc < battery.capacityKwh - EPS) {
      const reach = Math.min(battery.capacityKwh, soc + battery.chargeKw * slotHours * battery.chargeEfficiency);
      let k = 1;
      while (k < chargeSteps && (index + k) * grid.step < reach - EPS) k++;
      chargeEnd[index] = k;
    }
    if (soc > reserve + EPS) {
      const floor = Math.max(reserve, soc - (battery.dischargeKw * slotHours) / battery.dischargeEfficiency);
      let k = 1;
      while (k < dischargeSteps && (index - k) * grid.step > floor + EPS) k++;
      exportEnd[index] = k;
    }
  }
  return { chargeEnd, exportEnd };
}

/** Calls `visit` with every action open at `soc`: eco, hold, and (where open) charge or export to each reachable target. */
function forEachAction(
  options: OptimiseOptions,
  grid: Grid,
  soc: number,
  chargeOpen: boolean,
  visit: (mode: Mode, targetKwh: number | undefined) => void,
): void {
  const { battery, slotHours } = options;
  visit("eco", undefined);
  visit("hold", undefined);
  const reserve = (battery.reservePercent / 100) * battery.capacityKwh;
  if (chargeOpen && soc < battery.capacityKwh - EPS) {
    const reach = Math.min(battery.capacityKwh, soc + battery.chargeKw * slotHours * battery.chargeEfficiency);
    for (let j = Math.floor(soc / grid.step + EPS) + 1; j * grid.step < reach - EPS; j++)
      visit("charge", j * grid.step);
    visit("charge", undefined);
  }
  if (soc > reserve + EPS) {
    const floor = Math.max(reserve, soc - (battery.dischargeKw * slotHours) / battery.dischargeEfficiency);
    for (let j = Math.ceil(soc / grid.step - EPS) - 1; j * grid.step > floor + EPS; j--) visit("export", j * grid.step);
    visit("export", undefined);
  }
}

/** Per grid point, the best total of a charge and of an export to a grid target in the slot. */
interface TargetTotals {
  readonly charge: Float64Array;
  readonly export: Float64Array;
  readonly scratch: WindowScratch;
}

interface SlotPrices {
  readonly load: number;
  readonly solar: number;
  readonly importPrice: number;
  readonly exportPrice: number;
}

interface StepCosts {
  /** charge[k]: the slot's cost when the battery stores k grid steps more. */
  readonly charge: Float64Array;
  /** discharge[k]: the slot's cost when the battery gives up k grid steps. */
  readonly discharge: Float64Array;
  /** The runs of k over which charge[k] grows linearly, in order of k. */
  readonly chargeRuns: StepRun[];
  readonly dischargeRuns: StepRun[];
  /** Scratch for the energy model's answer. */
  readonly result: SlotResult;
}

function stepCounts(options: OptimiseOptions, grid: Grid): { chargeSteps: number; dischargeSteps: number } {
  const { battery, slotHours } = options;
  return {
    chargeSteps: Math.ceil((battery.chargeKw * slotHours * battery.chargeEfficiency) / grid.step) + 1,
    dischargeSteps: Math.ceil((battery.dischargeKw * slotHours) / battery.dischargeEfficiency / grid.step) + 1,
  };
}

/** The step cost arrays, allocated once per plan and filled per slot by stepCosts. */
function stepBuffers(options: OptimiseOptions, grid: Grid): StepCosts {
  const { chargeSteps, dischargeSteps } = stepCounts(options, grid);
  return {
    charge: new Float64Array(chargeSteps),
    discharge: new Float64Array(dischargeSteps),
    chargeRuns: [],
    dischargeRuns: [],
    result: { socKwh: 0, importKwh: 0, exportKwh: 0, chargedKwh: 0, dischargedKwh: 0 },
  };
}

function stepCosts(options: OptimiseOptions, b: UntargetedBattery, grid: Grid, t: number, into: StepCosts): void {
  const { battery, slotHours } = options;
  const load = options.load[t] as number;
  const solar = options.solar[t] as number;
  const importPrice = options.importPrices[t] as number;
  const exportPrice = options.exportPrices[t] as number;
  const { charge, discharge } = into;
  const kinds = new RunsOfKind(into.chargeRuns, charge);
  const result = into.result;
  for (let k = 1; k < charge.length; k++) {
    slotEnergyInto(result, battery, slotHours, "charge", 0, load, solar, k * grid.step);
    charge[k] = slotCost(result, importPrice, exportPrice);
    // No target lies more than the grid's width away: further steps clamp at the limits.
    if (k < grid.points) kinds.add(k, kindOf(result, b.exportCap, b.maxIn));
  }
  kinds.close();
  // A start and target far from the limits, so the target alone decides the energy.
  const middle = battery.capacityKwh;
  const reserveFree = { ...battery, reservePercent: 0 };
  const discharging = new RunsOfKind(into.dischargeRuns, discharge);
  for (let k = 1; k < discharge.length; k++) {
    slotEnergyInto(result, reserveFree, slotHours, "export", middle, load, solar, middle - k * grid.step);
    discharge[k] = slotCost(result, importPrice, exportPrice);
    if (k < grid.points) discharging.add(k, kindOf(result, b.exportCap, b.maxOut));
  }
  discharging.close();
}

function bestChoice(
  options: OptimiseOptions,
  grid: Grid,
  values: readonly Float64Array[],
  t: number,
  soc: number,
  current: Mode,
): Choice {
  const next = values[t + 1] as Float64Array;
  const load = options.load[t] as number;
  const solar = options.solar[t] as number;
  let chosen: Choice | undefined;
  const result: SlotResult = { socKwh: 0, importKwh: 0, exportKwh: 0, chargedKwh: 0, dischargedKwh: 0 };
  forEachAction(options, grid, soc, !options.noGridCharge?.[t], (mode, targetKwh) => {
    slotEnergyInto(result, options.battery, options.slotHours, mode, soc, load, solar, targetKwh);
    const cost = slotCost(result, options.importPrices[t] as number, options.exportPrices[t] as number);
    const change = mode === current ? 0 : options.changeCost;
    const total = cost + change + interpolate(next, grid.points, grid.step, MODE_INDEX[mode], result.socKwh);
    if (!chosen || total < chosen.total - 1e-12) chosen = { mode, targetKwh, result: { ...result }, cost, total };
  });
  if (!chosen) throw new Error("no action open: the optimiser's action set is empty");
  return chosen;
}
