/**
 * One rate budget per API token, shared by every caller of that token.
 *
 * The service's rule: a window starts at the first counted request and lasts the stated
 * minutes; every request that gets a response counts. We cannot see when the server opened
 * its window, only that it lies between sending the first request and receiving its answer,
 * so a window here ends `windowMs` after that first answer arrived. That keeps us behind
 * the server's window whatever the latency.
 */
import { type Clock, later, systemClock } from "../time/index.js";
import type { RequestBudgetState } from "../vocabulary/request-budget.js";

export type Priority = "command" | "live" | "background";

const PRIORITY_ORDER: Readonly<Record<Priority, number>> = { command: 0, live: 1, background: 2 };

export interface RateBudgetOptions {
  /** Requests allowed per window: the configured budget, which a server's looser limit never raises. */
  readonly limit: number;
  readonly windowMs: number;
  /** Slots a priority must leave free for the ones above it. */
  readonly reserve?: { readonly live?: number; readonly background?: number };
  /** Time and the wake-up timer of held grants; the system clock by default, a virtual one in tests. */
  readonly clock?: Clock;
}

export interface RateHeaders {
  readonly limit?: number;
  readonly remaining?: number;
}

/** A granted slot. Call `settle` once the request has an answer (or none). */
export interface Permit {
  settle(answer?: { headers: RateHeaders; status: number }): void;
}

interface Waiter {
  readonly priority: Priority;
  readonly seq: number;
  readonly resolve: (permit: Permit) => void;
  readonly reject: (error: unknown) => void;
  readonly cleanup: () => void;
}

/** The budget's state in the daemon's words (vocabulary/request-budget.ts), which its readers outside cloud/ use. */
export type RateBudgetState = RequestBudgetState;

/** The longest a run of 429s makes the budget wait between probes. */
export const MAX_BACKOFF_MS = 15 * 60_000;

export class RateBudget {
  private limit = 0;
  private readonly configured: number;
  readonly windowMs: number;
  private readonly reserve: RateBudgetOptions["reserve"];
  private liveReserve = 0;
  private backgroundReserve = 0;
  private expectedLive = 0;
  private readonly clock: Clock;

  private used = 0;
  private inFlight = 0;
  /**
   * When each grant of the last window was made, oldest first. The server's window opens at a
   * request it receives, ours at an answer we read, and a busy event loop reads late: a window
   * of ours can end after the server's next one began. No more than the allowance in any
   * stretch of one window, whatever the windows' alignment, keeps the two from adding up.
   */
  private readonly granted: number[] = [];
  /** Set when the first request of a window is sent; the anchor once its answer arrives. */
  private windowOpen = false;
  private windowAnchor: number | undefined;
  private generation = 0;
  private pausedUntil = 0;
  private rateLimitedInARow = 0;
  private waiters: Waiter[] = [];
  private seq = 0;
  private cancelTimer: (() => void) | undefined;

  constructor(options: RateBudgetOptions) {
    if (!(options.limit >= 1)) throw new RangeError("rate limit must be at least 1 request per window");
    this.windowMs = options.windowMs;
    this.reserve = options.reserve;
    this.configured = Math.floor(options.limit);
    this.setLimit(this.configured);
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Telemetry's planned live requests per window: background history is then granted only
   * what they and the command reserve leave, so a backfill never takes slots live polls
   * will need later in the window.
   */
  expectLive(perWindow: number): void {
    this.expectedLive = Math.max(0, Math.ceil(perWindow));
    this.setLimit(this.limit);
    this.drain();
  }

  /** Requests a priority may have granted in one window. */
  allowance(priority: Priority): number {
    return this.allowedFor(priority);
  }

  /** Waits for a slot. Commands go before live polling, live before background history. */
  acquire(priority: Priority, signal?: AbortSignal): Promise<Permit> {
    signal?.throwIfAborted();
    return new Promise<Permit>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        this.schedule();
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        priority,
        seq: this.seq++,
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
      this.waiters.sort((a, b) => PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] || a.seq - b.seq);
      this.drain();
    });
  }

  /** The budget's clock, for deadlines such as a Retry-After date. */
  now(): number {
    return this.clock.now();
  }

  /**
   * After a 429: nothing is sent until the window ends (or until `untilMs`, if later), and
   * after the second 429 in a row not before a delay that doubles with each one (see
   * `settle`); then one probe goes alone, and only its answer lets the rest follow.
   */
  pause(untilMs?: number): void {
    const now = this.clock.now();
    const windowEnd = this.windowEndsAt() ?? now + this.windowMs;
    this.pausedUntil = Math.max(this.pausedUntil, untilMs ?? 0, windowEnd, now + this.backoffMs());
    this.used = this.limit;
    this.schedule();
  }

  state(): RateBudgetState {
    return {
      limit: this.limit,
      configured: this.configured,
      rateLimitedInARow: this.rateLimitedInARow,
      used: this.used,
      inFlight: this.inFlight,
      waiting: this.waiters.length,
      windowEndsAt: this.windowEndsAt(),
      pausedUntil: this.pausedUntil,
      expectedLive: this.expectedLive,
    };
  }

  /** No extra wait for a lone 429 (the window's end is enough), then 2, 4, 8... windows, at most MAX_BACKOFF_MS. */
  private backoffMs(): number {
    if (this.rateLimitedInARow < 2) return 0;
    return Math.min(MAX_BACKOFF_MS, this.windowMs * 2 ** (this.rateLimitedInARow - 1));
  }

  private windowEndsAt(): number | undefined {
    return this.windowAnchor === undefined ? undefined : this.windowAnchor + this.windowMs;
  }

  private allowedFor(priority: Priority): number {
    if (priority === "command") return this.limit;
    return Math.max(1, this.limit - (priority === "live" ? this.liveReserve : this.backgroundReserve));
  }

  /** Grants made in the window that ends now. */
  private grantedWithin(now: number): number {
    let expired = 0;
    while (expired < this.granted.length && (this.granted[expired] ?? now) <= now - this.windowMs) expired++;
    if (expired > 0) this.granted.splice(0, expired);
    return this.granted.length;
  }

  private rollWindow(now: number): void {
    const end = this.windowEndsAt();
    if (end !== undefined && now >= end) {
      this.windowOpen = false;
      this.windowAnchor = undefined;
      this.used = 0;
      this.generation++;
    }
  }

  private drain(): void {
    const now = this.clock.now();
    this.rollWindow(now);
    while (this.waiters.length > 0 && now >= this.pausedUntil) {
      const head = this.waiters[0];
      if (!head || this.used >= this.allowedFor(head.priority)) break;
      // Backing off: one probe at a time, until one is answered without a 429.
      if (this.rateLimitedInARow > 0 && this.inFlight > 0) break;
      if (this.grantedWithin(now) >= this.allowedFor(head.priority)) break;
      this.waiters.shift();
      head.cleanup();
      head.resolve(this.grant(now));
    }
    this.schedule();
  }

  private grant(now: number): Permit {
    this.granted.push(now);
    this.used++;
    this.inFlight++;
    const firstOfWindow = !this.windowOpen;
    this.windowOpen = true;
    const generation = this.generation;
    let settled = false;
    return {
      settle: (answer) => {
        if (settled) return;
        settled = true;
        this.inFlight--;
        const at = this.clock.now();
        if (generation === this.generation) {
          if (firstOfWindow && this.windowAnchor === undefined) this.windowAnchor = answer ? at : now;
          if (answer) this.correct(answer.headers);
        }
        if (answer?.status === 429) {
          this.rateLimitedInARow++;
          this.pause();
        } else if (answer) this.rateLimitedInARow = 0;
        this.drain();
      },
    };
  }

  /** The reserves scale with the limit: a limit learnt from the server must not leave them sized for a larger one. */
  private setLimit(limit: number): void {
    this.limit = limit;
    this.liveReserve = this.reserve?.live ?? Math.min(3, Math.floor(limit / 20));
    this.backgroundReserve =
      this.liveReserve + Math.max(this.reserve?.background ?? Math.floor(limit / 20), this.expectedLive);
  }

  /**
   * The server's limit holds both ways: a stricter one at once, a looser one back up to the
   * configured limit (never above it), so one tight answer does not throttle us until a restart.
   * Its count wins when it has counted more than we have.
   */
  private correct(headers: RateHeaders): void {
    if (headers.limit !== undefined && headers.limit >= 1) {
      const limit = Math.min(Math.floor(headers.limit), this.configured);
      if (limit !== this.limit) this.setLimit(limit);
    }
    if (headers.remaining !== undefined && headers.remaining >= 0) {
      const serverUsed = this.limit - headers.remaining;
      this.used = Math.max(this.used, serverUsed + this.inFlight);
    }
  }

  private schedule(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.waiters.length === 0) return;
    const now = this.clock.now();
    const head = this.waiters[0];
    // Held back by the grants of the last window: wake when the oldest of them leaves it.
    const held = head !== undefined && this.grantedWithin(now) >= this.allowedFor(head.priority);
    const heldUntil = held ? (this.granted[0] ?? now) + this.windowMs : 0;
    const wakeAt = Math.max(this.pausedUntil, this.windowEndsAt() ?? 0, heldUntil);
    // With no window end known yet, an answer in flight will call drain() when it settles.
    if (wakeAt <= now) return;
    this.cancelTimer = later(this.clock, wakeAt - now, () => {
      this.cancelTimer = undefined;
      this.drain();
    });
  }
}

/** Budgets keyed by base URL and token, so every client of one token shares one. */
export class RateBudgetRegistry {
  private readonly budgets = new Map<string, RateBudget>();

  get(key: string, create: () => RateBudget): RateBudget {
    let budget = this.budgets.get(key);
    if (!budget) {
      budget = create();
      this.budgets.set(key, budget);
    }
    return budget;
  }
}

export const sharedBudgets = new RateBudgetRegistry();
