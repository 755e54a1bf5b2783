import type { ControlSettings } from "./control.js";
import {
  BATTERY_TO_GRID,
  BATTERY_TO_HOME,
  dispatch,
  FLOW_COUNT,
  GRID_TO_BATTERY,
  GRID_TO_HOME,
  PV_TO_BATTERY,
  PV_TO_GRID,
  PV_TO_HOME,
  storedDeltaWh,
} from "./dispatch.js";
import { type DayFrame, STEP_HOURS, STEP_MS, STEPS_PER_SLOT } from "./frame.js";
import { type DayInputs, fillInputs } from "./inputs.js";
import type { HouseContext } from "./spec.js";

/** Fields of a slot's state: the values at the slot's first step. */
export const STATE_SOC_PERCENT = 0;
export const STATE_PV = 1;
export const STATE_LOAD = 2;
export const STATE_BATTERY = 3;
export const STATE_GRID = 4;
export const STATE_INVERTER = 5;
export const STATE_MODE = 6;
export const STATE_MINUTE = 7;
export const STATE_STRIDE = 8;

/** A day at 5-minute resolution: each slot's flows (Wh) and its state at the slot's start. */
export interface DayDetail {
  readonly frame: DayFrame;
  readonly slotFlows: Float64Array;
  readonly slotState: Float32Array;
}

/** Instantaneous powers of a step, with the signs of the API. */
export interface Powers {
  pvW: number;
  loadW: number;
  /** + discharging, − charging. */
  batteryW: number;
  /** + exporting, − importing. */
  gridW: number;
  /** AC output of the inverter, − when it charges from the grid. */
  inverterW: number;
}

export function powersOf(flowsW: Float64Array): Powers {
  const f = (index: number): number => flowsW[index] ?? 0;
  return {
    pvW: f(PV_TO_HOME) + f(PV_TO_BATTERY) + f(PV_TO_GRID),
    loadW: f(PV_TO_HOME) + f(GRID_TO_HOME) + f(BATTERY_TO_HOME),
    batteryW: f(BATTERY_TO_HOME) + f(BATTERY_TO_GRID) - f(PV_TO_BATTERY) - f(GRID_TO_BATTERY),
    gridW: f(PV_TO_GRID) + f(BATTERY_TO_GRID) - f(GRID_TO_HOME) - f(GRID_TO_BATTERY),
    inverterW: f(PV_TO_HOME) + f(PV_TO_GRID) + f(BATTERY_TO_HOME) + f(BATTERY_TO_GRID) - f(GRID_TO_BATTERY),
  };
}

let simulations = 0;

/** How many day simulations have been set up in this process; construction must not add any. */
export function daySimulations(): number {
  return simulations;
}

/**
 * The minute of day a device's timed slots run by at an instant: its own clock's (the
 * simulator's local/device-clock.ts). Left out, the zone's local minute.
 */
export type SlotMinute = (utcMs: number) => number;

/** Integrates one local day step by step, from a stored energy at local midnight. */
export class DayRun {
  /** Wh of each flow since the day's start. */
  readonly flows = new Float64Array(FLOW_COUNT);
  readonly detail: DayDetail | undefined;
  socWh: number;
  /** Steps integrated so far. */
  cursor = 0;
  /** Load on top of the day's own, W (the admin API's fault: an appliance left on). */
  extraLoadW = 0;
  private readonly stepW = new Float64Array(FLOW_COUNT);

  constructor(
    private readonly context: HouseContext,
    readonly frame: DayFrame,
    readonly inputs: DayInputs,
    readonly startSocWh: number,
    withDetail: boolean,
  ) {
    simulations++;
    fillInputs(context, frame, inputs);
    this.socWh = startSocWh;
    this.detail = withDetail
      ? {
          frame,
          slotFlows: new Float64Array(frame.slots * FLOW_COUNT),
          slotState: new Float32Array(frame.slots * STATE_STRIDE),
        }
      : undefined;
  }

  get done(): boolean {
    return this.cursor >= this.frame.steps;
  }

  /** Integrates steps up to (not including) `toStep` under `control`, its slots by `slotMinute` when given. */
  run(control: ControlSettings, toStep: number, slotMinute?: SlotMinute): void {
    const { plant } = this.context;
    const { pvW, loadW, mode, minute } = this.inputs;
    const end = Math.min(toStep, this.frame.steps);
    const { flows, stepW, detail } = this;
    // Imported bindings hoisted once: module transforms turn each access into a getter call.
    const split = dispatch;
    const stored = storedDeltaWh;
    const hours = STEP_HOURS;
    const perSlot = STEPS_PER_SLOT;
    const count = FLOW_COUNT;
    const capacity = plant.capacityWh;
    const extra = this.extraLoadW;
    let soc = this.socWh;
    for (let step = this.cursor; step < end; step++) {
      const stepMode = mode[step] ?? 0;
      const slotAt = slotMinute ? slotMinute(this.frame.startMs + step * STEP_MS) : (minute[step] ?? 0);
      split(control, plant, pvW[step] ?? 0, (loadW[step] ?? 0) + extra, slotAt, soc, hours, stepMode, stepW);
      if (detail) {
        const slot = Math.floor(step / perSlot);
        if (step % perSlot === 0) this.writeState(detail.slotState, slot, soc, stepMode, minute[step] ?? 0);
        const base = slot * count;
        for (let index = 0; index < count; index++) {
          detail.slotFlows[base + index] = (detail.slotFlows[base + index] ?? 0) + (stepW[index] ?? 0) * hours;
        }
      }
      for (let index = 0; index < count; index++) flows[index] = (flows[index] ?? 0) + (stepW[index] ?? 0) * hours;
      soc = Math.min(capacity, Math.max(0, soc + stored(stepW, hours)));
    }
    this.socWh = soc;
    this.cursor = Math.max(this.cursor, end);
  }

  /** The powers (W) of the next step under `control`, without integrating it. */
  peek(control: ControlSettings, out: Float64Array, slotMinute?: SlotMinute): void {
    const step = Math.min(this.cursor, this.frame.steps - 1);
    dispatch(
      control,
      this.context.plant,
      this.inputs.pvW[step] ?? 0,
      (this.inputs.loadW[step] ?? 0) + this.extraLoadW,
      slotMinute ? slotMinute(this.frame.startMs + step * STEP_MS) : (this.inputs.minute[step] ?? 0),
      this.socWh,
      STEP_HOURS,
      this.inputs.mode[step] ?? 0,
      out,
    );
  }

  /** The fault mode of the next step. */
  modeNow(): number {
    return this.inputs.mode[Math.min(this.cursor, this.frame.steps - 1)] ?? 0;
  }

  private writeState(state: Float32Array, slot: number, soc: number, mode: number, localMinute: number): void {
    const powers = powersOf(this.stepW);
    const base = slot * STATE_STRIDE;
    const capacity = this.context.plant.capacityWh;
    state[base + STATE_SOC_PERCENT] = capacity > 0 ? (soc / capacity) * 100 : 0;
    state[base + STATE_PV] = powers.pvW;
    state[base + STATE_LOAD] = powers.loadW;
    state[base + STATE_BATTERY] = powers.batteryW;
    state[base + STATE_GRID] = powers.gridW;
    state[base + STATE_INVERTER] = powers.inverterW;
    state[base + STATE_MODE] = mode;
    state[base + STATE_MINUTE] = localMinute;
  }
}
