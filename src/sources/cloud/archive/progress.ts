import { type Clock, every } from "../../../time/index.js";
import type { RequestBudgetState } from "../../../vocabulary/request-budget.js";
import { duration } from "./report.js";
import type { Progress } from "./run.js";

export interface ProgressViewOptions {
  /** Draw a bar that redraws in place; otherwise print a plain line now and then. */
  readonly tty: boolean;
  /** Requests per minute the rate budget allows: the pace the estimate cannot beat. */
  readonly perMinute: () => number;
  /** Between plain lines; 10 s by default. */
  readonly intervalMs?: number;
  /** The system clock by default. */
  readonly clock: Clock;
  /** The rate budget, to say when and why the archive waits (nothing moves then). */
  readonly budget?: () => RequestBudgetState;
}

export interface ProgressView {
  update(progress: Progress): void;
  /** Draws the last state and leaves the line. */
  end(): void;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 200;

/** Progress on stderr: requests done of planned, and the time left at the pace the budget allows. */
export function progressView(out: NodeJS.WritableStream, options: ProgressViewOptions): ProgressView {
  const clock = options.clock;
  const now = (): number => clock.now();
  const interval = options.tty ? REDRAW_MS : (options.intervalMs ?? 10_000);
  let last: Progress | undefined;
  let drawnAt = Number.NEGATIVE_INFINITY;
  let drawn = false;
  let wasWaiting = false;

  const waiting = (): string | undefined => {
    const state = options.budget?.();
    return state ? waitText(state, now()) : undefined;
  };

  const draw = (progress: Progress | undefined, wait = waiting()): void => {
    // Before the first progress the account's devices are being read.
    const line = progress
      ? describe(progress, options.perMinute(), now(), wait)
      : `archive: reading the account's devices${wait ? `; ${wait}` : ""}`;
    if (options.tty) {
      out.write(`\r\x1b[K${line}`);
    } else {
      out.write(`${line}\n`);
    }
    drawnAt = now();
    drawn = true;
    wasWaiting = wait !== undefined;
  };

  // While the budget holds every request back nothing calls update(): redraw every second on a
  // terminal (the countdown), and print a plain line once when a wait starts.
  const stopTicker = options.budget
    ? every(
        clock,
        TICK_MS,
        () => {
          const wait = waiting();
          const started = wait !== undefined && !wasWaiting;
          if (wait === undefined) wasWaiting = false;
          if (options.tty ? wait !== undefined : started) draw(last, wait);
        },
        { background: true },
      )
    : undefined;

  return {
    update(progress) {
      last = progress;
      if (now() - drawnAt >= interval) draw(progress);
    },
    end() {
      stopTicker?.();
      if (last && (options.tty || !drawn || now() > drawnAt)) draw(last, undefined);
      if (options.tty && drawn) out.write("\n");
    },
  };
}

const TICK_MS = 1000;

/** Why nothing moves: every request is held back by the rate budget, and for how long. */
export function waitText(state: RequestBudgetState, at: number): string | undefined {
  if (state.waiting === 0 || state.inFlight > 0) return undefined;
  const until = Math.max(state.pausedUntil, state.windowEndsAt ?? 0);
  if (until <= at) return undefined;
  const seconds = Math.ceil((until - at) / 1000);
  return state.pausedUntil > at
    ? `waiting ${seconds} s: the cloud refused a request for the rate limit (429), so nothing is sent until its window ends`
    : `waiting ${seconds} s for the rate window (${state.limit} requests/min)`;
}

export function describe(progress: Progress, perMinute: number, at: number, waiting?: string): string {
  const { requestsDone: done, requestsPlanned: planned } = progress;
  const fraction = planned > 0 ? Math.min(1, done / planned) : 1;
  const filled = Math.round(fraction * BAR_WIDTH);
  const bar = `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}]`;
  const left = Math.max(0, planned - done);
  const eta = estimateMs(left, done, at - progress.startedAt, perMinute);
  const current = progress.current
    ? `  ${progress.current.kind} ${progress.current.device} ${progress.current.days[0] ?? ""}`
    : "";
  const etaText = eta === undefined ? "" : `  about ${duration(Math.ceil(eta / 1000))} left`;
  const what = waiting ? `  ${waiting}` : current;
  return `archive ${bar} ${done}/${planned} requests ${Math.floor(fraction * 100)}%${etaText}${what}`;
}

/** The slower of the pace seen so far and the pace the budget allows. */
export function estimateMs(left: number, done: number, elapsedMs: number, perMinute: number): number | undefined {
  if (left === 0) return 0;
  const budgetMs = (left / Math.max(1, perMinute)) * 60_000;
  if (done < 5 || elapsedMs <= 0) return budgetMs;
  return Math.max(budgetMs, (left * elapsedMs) / done);
}
