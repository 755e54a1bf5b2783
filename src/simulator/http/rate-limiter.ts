import { type Clock, systemClock } from "../../time/index.js";

/**
 * The service's rate rule, server side: a window opens at the first counted request and
 * lasts the stated minutes; every request that gets a response counts, whatever its status.
 */
export interface RateWindowState {
  readonly limit: number;
  readonly remaining: number;
  readonly allowed: boolean;
  /** When the current window ends, epoch ms (wall clock). */
  readonly resetAt: number;
}

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private limit: number,
    private readonly windowMs: number,
    /** Wall time: the simulator limits real requests, however fast simulated time runs. */
    private readonly clock: Clock = systemClock,
  ) {}

  /** Whole seconds, at least 1, until a refused request's window ends. */
  retryAfterSeconds(state: RateWindowState): number {
    return Math.max(1, Math.ceil((state.resetAt - this.clock.now()) / 1000));
  }

  setLimit(limit: number): void {
    this.limit = limit;
  }

  currentLimit(): number {
    return this.limit;
  }

  /** Counts one request for `key` and says whether it was within the limit. */
  hit(key: string): RateWindowState {
    const now = this.clock.now();
    let window = this.windows.get(key);
    if (!window || now >= window.start + this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      allowed: window.count <= this.limit,
      resetAt: window.start + this.windowMs,
    };
  }

  reset(): void {
    this.windows.clear();
  }
}
