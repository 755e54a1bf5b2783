import type { GridCounters, TodayCost } from "../../rules-runtime/index.js";
import { localDay } from "../../time/index.js";

export interface PricesAt {
  readonly import?: number;
  readonly export?: number;
}

interface Baseline {
  readonly at: number;
  readonly counters: GridCounters;
}

/** The standing charge per day in force at an instant (an import tariff's), if it has one. */
export type StandingCharge = (at: number) => number | undefined;

/**
 * Today's electricity cost from the inverters' daily grid counters: each new reading's import
 * increase times the import price at that reading, minus its export increase times the export
 * price, plus the day's standing charge when one is given. Starts again at local midnight. The
 * first reading of a counter is a baseline only: energy before it came at prices we did not see.
 */
export class CostMeter {
  private readonly baselines = new Map<string, Baseline>();
  private day: { start: number; end: number } | undefined;
  private cost = 0;
  private since = 0;

  constructor(
    readonly timeZone: string,
    private readonly standingCharge: StandingCharge = () => undefined,
  ) {}

  /** Today's cost so far and when it started counting; undefined before any counter arrived. */
  get value(): TodayCost | undefined {
    return this.day ? { cost: this.cost, since: this.since } : undefined;
  }

  /** Starts a new day when `now` is past local midnight; true when it did. */
  rollOver(now: number): boolean {
    if (!this.day || now < this.day.end) return false;
    this.day = localDay(now, this.timeZone);
    this.cost = this.standingCharge(this.day.start) ?? 0;
    this.since = this.day.start;
    return true;
  }

  /** Takes one inverter's counters at `at`; true when the cost changed or began. */
  add(serial: string, at: number, counters: GridCounters, prices: PricesAt): boolean {
    let changed = false;
    if (!this.day) {
      this.day = localDay(at, this.timeZone);
      // Owed for the whole day, even when counting starts part-way through it.
      this.cost = this.standingCharge(this.day.start) ?? 0;
      this.since = at;
      changed = true;
    }
    changed = this.rollOver(at) || changed;
    const previous = this.baselines.get(serial);
    if (previous && at <= previous.at) return changed;
    this.baselines.set(serial, { at, counters });
    if (!previous || at < this.day.start) return changed;
    const imported = increase(previous, counters.import, "import", this.day.start);
    const exported = increase(previous, counters.export, "export", this.day.start);
    if (imported === 0 && exported === 0) return changed;
    this.cost += imported * (prices.import ?? 0) - exported * (prices.export ?? 0);
    return true;
  }
}

/**
 * Energy since the previous reading. A counter that went down was reset at the inverter's
 * midnight: all of its value is new. Across our midnight without such a reset the increase
 * belongs to yesterday, so today gets none of it.
 */
function increase(previous: Baseline, now: number, which: keyof GridCounters, dayStart: number): number {
  const before = previous.counters[which];
  if (now < before) return now;
  if (previous.at < dayStart) return 0;
  return now - before;
}
