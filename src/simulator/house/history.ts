import type { ControlSettings } from "./control.js";
import { type DayDetail, DayRun } from "./day-run.js";
import { dayFrame } from "./frame.js";
import { DayInputs } from "./inputs.js";
import { DayLedger } from "./ledger.js";
import type { HouseContext } from "./spec.js";

/** Detailed history days kept per house; a query rarely spans more. */
const DETAIL_CACHE_DAYS = 4;

// One buffer for all houses: history days are simulated one at a time, synchronously.
const sharedInputs = new DayInputs();

/**
 * The days before the simulation start, under the settings read at construction. Summaries
 * are computed in order from the first day, once; a day's 5-minute detail is recomputed on
 * demand from its recorded midnight SOC and kept in a small cache.
 */
export class History {
  readonly ledger: DayLedger;
  private socWh: number;
  private readonly details = new Map<number, DayDetail>();

  constructor(
    private readonly context: HouseContext,
    private readonly control: ControlSettings,
    firstDay: number,
    /** The first live day: history records nothing from here. */
    readonly endDay: number,
  ) {
    this.ledger = new DayLedger(firstDay);
    this.socWh = context.initialSocWh;
  }

  /** Records every history day before `day`. */
  extend(day: number): void {
    const limit = Math.min(day, this.endDay);
    while (this.ledger.nextDay < limit) {
      const run = new DayRun(
        this.context,
        dayFrame(this.ledger.nextDay, this.context.timezone),
        sharedInputs,
        this.socWh,
        false,
      );
      run.run(this.control, run.frame.steps);
      this.ledger.push(run.flows, this.socWh);
      this.socWh = run.socWh;
    }
  }

  /** Stored energy at the midnight starting `endDay`. */
  socAtEnd(): number {
    this.extend(this.endDay);
    return this.socWh;
  }

  /** The run of a day from its midnight up to `toStep`, under the history settings. */
  replay(day: number, inputs: DayInputs, toStep: number): DayRun {
    this.extend(day);
    const startSoc = day < this.ledger.nextDay ? this.ledger.startSocWh(day) : this.socWh;
    const run = new DayRun(this.context, dayFrame(day, this.context.timezone), inputs, startSoc, true);
    run.run(this.control, toStep);
    return run;
  }

  /** A history day's detail, or undefined outside the history. */
  detail(day: number): DayDetail | undefined {
    if (day < this.ledger.firstDay || day >= this.endDay) return undefined;
    const cached = this.details.get(day);
    if (cached) {
      this.details.delete(day);
      this.details.set(day, cached);
      return cached;
    }
    const detail = this.replay(day, sharedInputs, Number.POSITIVE_INFINITY).detail;
    if (!detail) return undefined;
    this.details.set(day, detail);
    if (this.details.size > DETAIL_CACHE_DAYS) {
      const oldest = this.details.keys().next();
      if (!oldest.done) this.details.delete(oldest.value);
    }
    return detail;
  }

  get cachedDetails(): number {
    return this.details.size;
  }
}
