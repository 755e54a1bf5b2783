import {
  BATTERY_TO_GRID,
  BATTERY_TO_HOME,
  FLOW_COUNT,
  GRID_TO_BATTERY,
  GRID_TO_HOME,
  PV_TO_BATTERY,
  PV_TO_GRID,
  PV_TO_HOME,
} from "./dispatch.js";

/** The meter counters, in this order: solar, import, export, charge, discharge, consumption, ac_charge. */
export const COUNTER_COUNT = 7;
/** Counters are kept in whole units of 0.01 kWh, so totals add up exactly to the sum of the days. */
export const WH_PER_UNIT = 10;

/** The counters (in units) of some flows (in Wh), written to `out`. */
export function counterUnits(flows: ArrayLike<number>, out: Float64Array): Float64Array {
  const f = (index: number): number => flows[index] ?? 0;
  const wh = [
    f(PV_TO_HOME) + f(PV_TO_BATTERY) + f(PV_TO_GRID),
    f(GRID_TO_HOME) + f(GRID_TO_BATTERY),
    f(PV_TO_GRID) + f(BATTERY_TO_GRID),
    f(PV_TO_BATTERY) + f(GRID_TO_BATTERY),
    f(BATTERY_TO_HOME) + f(BATTERY_TO_GRID),
    f(PV_TO_HOME) + f(GRID_TO_HOME) + f(BATTERY_TO_HOME),
    f(GRID_TO_BATTERY),
  ];
  for (let index = 0; index < COUNTER_COUNT; index++) out[index] = Math.round((wh[index] ?? 0) / WH_PER_UNIT);
  return out;
}

/**
 * The summary of every finished day from the first: its seven flows (Wh), its stored energy at
 * midnight, and the counters (units) accumulated before it. About 120 bytes a day.
 */
export class DayLedger {
  private flows = new Float64Array(64 * FLOW_COUNT);
  private startSoc = new Float64Array(64);
  private prefix = new Float64Array(65 * COUNTER_COUNT);
  private readonly scratch = new Float64Array(COUNTER_COUNT);
  /** Days recorded, from `firstDay`. */
  count = 0;

  constructor(readonly firstDay: number) {}

  /** The day after the last recorded one. */
  get nextDay(): number {
    return this.firstDay + this.count;
  }

  has(day: number): boolean {
    return day >= this.firstDay && day < this.nextDay;
  }

  push(flows: Float64Array, startSocWh: number): void {
    if (this.count === this.startSoc.length) this.grow();
    this.flows.set(flows.subarray(0, FLOW_COUNT), this.count * FLOW_COUNT);
    this.startSoc[this.count] = startSocWh;
    const units = counterUnits(flows, this.scratch);
    const before = this.count * COUNTER_COUNT;
    for (let index = 0; index < COUNTER_COUNT; index++) {
      this.prefix[before + COUNTER_COUNT + index] = (this.prefix[before + index] ?? 0) + (units[index] ?? 0);
    }
    this.count++;
  }

  /** A recorded day's flows in Wh. */
  dayFlows(day: number): Float64Array {
    const offset = (day - this.firstDay) * FLOW_COUNT;
    return this.flows.subarray(offset, offset + FLOW_COUNT);
  }

  startSocWh(day: number): number {
    return this.startSoc[day - this.firstDay] ?? 0;
  }

  /** Counters (units) accumulated before `day`; `day` may be the next day to record. */
  unitsBefore(day: number): Float64Array {
    const index = Math.min(Math.max(0, day - this.firstDay), this.count) * COUNTER_COUNT;
    return this.prefix.subarray(index, index + COUNTER_COUNT);
  }

  private grow(): void {
    const capacity = this.startSoc.length * 2;
    const flows = new Float64Array(capacity * FLOW_COUNT);
    flows.set(this.flows);
    this.flows = flows;
    const startSoc = new Float64Array(capacity);
    startSoc.set(this.startSoc);
    this.startSoc = startSoc;
    const prefix = new Float64Array((capacity + 1) * COUNTER_COUNT);
    prefix.set(this.prefix);
    this.prefix = prefix;
  }
}
