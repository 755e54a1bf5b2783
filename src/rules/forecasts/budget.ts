import { DAY_MS } from "../../optimiser/index.js";
import { ForecastError } from "./http.js";

/**
 * Requests a service may be sent per UTC day (Solcast counts its hobbyist calls per UTC day).
 * Kept in memory: a restart starts the day's count again, so the defaults leave room.
 */
export class RequestBudget {
  private day = Number.NaN;
  private used = 0;

  constructor(
    readonly service: string,
    readonly perDay: number,
  ) {}

  /** Counts one request, or throws saying when the budget frees up. */
  take(now: number): void {
    const day = Math.floor(now / DAY_MS);
    if (day !== this.day) {
      this.day = day;
      this.used = 0;
    }
    if (this.used >= this.perDay)
      throw new ForecastError(
        `${this.service}: the ${this.perDay} requests a day are spent until 00:00 UTC (daily_requests)`,
      );
    this.used += 1;
  }

  /** Requests left today. */
  left(now: number): number {
    return Math.floor(now / DAY_MS) === this.day ? this.perDay - this.used : this.perDay;
  }
}

const shared = new Map<string, RequestBudget>();

/** One budget per service in the process: two sources of the same service share it. */
export function budgetFor(service: string, perDay: number): RequestBudget {
  const found = shared.get(service);
  if (found && found.perDay === perDay) return found;
  const budget = new RequestBudget(service, perDay);
  shared.set(service, budget);
  return budget;
}
