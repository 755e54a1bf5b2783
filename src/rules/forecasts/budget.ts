import { ForecastError } from "./http.js";

/** Where the requests of each service per UTC day are counted (the store keeps them across restarts). */
export interface RequestCounts {
  requestsOn(service: string, day: string): number;
  addRequest(service: string, day: string): number;
}

/** Counts in memory: a restart starts the day's count again. */
class MemoryCounts implements RequestCounts {
  private readonly counts = new Map<string, number>();

  requestsOn(service: string, day: string): number {
    return this.counts.get(`${service}\n${day}`) ?? 0;
  }

  addRequest(service: string, day: string): number {
    const total = this.requestsOn(service, day) + 1;
    this.counts.set(`${service}\n${day}`, total);
    return total;
  }
}

/** The UTC day of an instant, YYYY-MM-DD: Solcast counts its hobbyist calls per UTC day. */
function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Requests a service may be sent per UTC day. */
export class RequestBudget {
  constructor(
    readonly service: string,
    readonly perDay: number,
    private readonly counts: RequestCounts = new MemoryCounts(),
  ) {}

  /** Counts one request, or throws saying when the budget frees up. */
  take(now: number): void {
    const day = utcDay(now);
    if (this.counts.requestsOn(this.service, day) >= this.perDay)
      throw new ForecastError(
        `${this.service}: the ${this.perDay} requests a day are spent until 00:00 UTC (daily_requests)`,
      );
    this.counts.addRequest(this.service, day);
  }

  /** Requests left today. */
  left(now: number): number {
    return Math.max(0, this.perDay - this.counts.requestsOn(this.service, utcDay(now)));
  }
}

const shared = new Map<string, RequestBudget>();

/** Without a store: one budget per service in the process, so two feeds of the same service share it. */
export function budgetFor(service: string, perDay: number): RequestBudget {
  const found = shared.get(service);
  if (found && found.perDay === perDay) return found;
  const budget = new RequestBudget(service, perDay);
  shared.set(service, budget);
  return budget;
}
