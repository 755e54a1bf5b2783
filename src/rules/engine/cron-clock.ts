import { HOUR_MS } from "../../time/index.js";
import { nextCronTime } from "../file/cron-times.js";
import type { Rule } from "../file/schema.js";

/** How far ahead the next cron time is looked for; none within it: look again then. */
const LOOKAHEAD_MS = 25 * HOUR_MS;

interface NextCheck {
  readonly at: number;
  /** False when no cron time fell within the lookahead: `at` is only a look again. */
  readonly fire: boolean;
}

/**
 * Each cron rule's next run on the engine's own clock, so that the daemon and the tests (on a
 * virtual clock) compute the same times. The engine arms one timer for nextCheck() and asks
 * due() when it rings; each rule is then armed again for its following time.
 */
export class CronClock {
  private readonly next = new Map<string, NextCheck>();
  private readonly expressions = new Map<string, string[]>();

  constructor(
    rules: readonly Rule[],
    private readonly timeZone: string,
    now: number,
  ) {
    for (const rule of rules) {
      const crons = rule.when.flatMap((trigger) => (trigger.cron === undefined ? [] : [trigger.cron]));
      if (crons.length === 0) continue;
      this.expressions.set(rule.name, crons);
      this.next.set(rule.name, this.after(crons, now));
    }
  }

  /** When the earliest rule is due (or due a look again); Infinity without cron rules. */
  nextCheck(): number {
    return Math.min(...[...this.next.values()].map((next) => next.at));
  }

  /**
   * The names of the rules whose cron time has come, in rule order, each armed again for its next
   * time. A time missed (the machine slept) runs once, late; the ones in between are skipped.
   */
  due(now: number): string[] {
    const names: string[] = [];
    for (const [name, next] of this.next) {
      if (next.at > now) continue;
      const crons = this.expressions.get(name) ?? [];
      this.next.set(name, this.after(crons, next.fire ? Math.max(next.at + 1, now) : Math.max(next.at, now)));
      if (next.fire) names.push(name);
    }
    return names;
  }

  private after(crons: readonly string[], from: number): NextCheck {
    const at = nextCronTime(crons, from, from + LOOKAHEAD_MS, this.timeZone);
    return at === undefined ? { at: from + LOOKAHEAD_MS, fire: false } : { at, fire: true };
  }
}
