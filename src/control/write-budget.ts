import type { Logger } from "../log/log.js";
import type { WriteCounts } from "../store/index.js";
import { type Clock, dayOf } from "../time/index.js";
import { presetDifferences } from "./preset-differences.js";

/** The share of the budget at which the day's one warning is given. */
const WARN_SHARE = 0.8;

/** The config key named in refusals and warnings. */
const KEY = "control.write_budget";

export interface WriteBudgetOptions {
  /** The writes sent per device and local day, kept in the store so a restart does not reset them. */
  readonly counts: WriteCounts;
  /** Writes per device per local day (`control.write_budget`; its default and why are in config/schema.ts). */
  readonly limit: number;
  readonly clock: Clock;
  /** The house's zone, whose midnight starts a new day (the inventory's). */
  readonly timeZone: () => string;
  readonly logger: Logger;
}

/**
 * The daily write budget per device: every value the gate writes to a device counts (a setting
 * is one, a preset as many as the values it sends); charger commands do not. At 80% a warning,
 * once per device and day; at 100% further writes are refused, but a write that puts the house
 * back (a rule's restore, a snapshot restored) still goes, and is counted.
 */
export class WriteBudget {
  readonly limit: number;
  private readonly counts: WriteCounts;
  private readonly clock: Clock;
  private readonly timeZone: () => string;
  private readonly logger: Logger;

  constructor(options: WriteBudgetOptions) {
    this.limit = options.limit;
    this.counts = options.counts;
    this.clock = options.clock;
    this.timeZone = options.timeZone;
    this.logger = options.logger;
  }

  /**
   * Counts `writes` about to be sent to the device, or says why they may not be (nothing is
   * counted then). A restore is never refused.
   */
  spend(serial: string, writes: number, restore: boolean): string | undefined {
    const day = this.today();
    try {
      const used = this.counts.get(serial, day).writes;
      if (!restore && used + writes > this.limit) return this.refusal(serial, used, writes);
      const total = this.counts.add(serial, day, writes);
      if (total >= this.limit * WARN_SHARE && this.counts.markWarned(serial, day)) {
        // A warning reaches <base>/bridge/logging as well as the log.
        this.logger.warn(
          { serial, writes: total, budget: this.limit },
          `device ${serial} has had ${total} of its ${this.limit} writes today (${KEY}); at ${this.limit} further changes are refused until local midnight, except restores`,
        );
      }
    } catch (error) {
      // The count lives in the store; when it fails the audit log says so too, and the change goes.
      this.logger.error({ err: error, serial }, "the daily write count could not be kept");
    }
    return undefined;
  }

  /** Writes sent to the device today (local day). */
  writesToday(serial: string): number {
    return this.counts.get(serial, this.today()).writes;
  }

  /** Every device's writes today, by serial. */
  countsToday(): Record<string, number> {
    return Object.fromEntries(this.counts.day(this.today()).map((count) => [count.serial, count.writes]));
  }

  private today(): string {
    return dayOf(this.clock.now(), this.timeZone());
  }

  private refusal(serial: string, used: number, writes: number): string {
    const asked = writes === 1 ? "one more write" : `${writes} more writes`;
    return `device ${serial} has had ${used} of its ${this.limit} writes today (${KEY}), and this change needs ${asked}: try again after local midnight, or raise ${KEY}`;
  }
}

/** How many values a preset's fields write: each leaf value, slots' fields included. */
export function valuesIn(fields: unknown): number {
  if (Array.isArray(fields)) return fields.reduce((sum: number, item) => sum + valuesIn(item), 0);
  if (typeof fields === "object" && fields !== null)
    return Object.values(fields).reduce((sum: number, item) => sum + valuesIn(item), 0);
  return 1;
}

/**
 * How many of a preset's values differ from what the device holds (`current`, as read), field
 * by field and slot by slot; what was not read counts.
 */
export function valuesChanged(
  current: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<string, unknown>>,
): number {
  return presetDifferences(fields, current).differences.reduce(
    (sum, difference) => sum + valuesIn(difference.wanted),
    0,
  );
}
