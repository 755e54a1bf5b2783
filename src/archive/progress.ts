import { duration } from "./report.js";
import type { Progress } from "./run.js";

export interface ProgressViewOptions {
  /** Draw a bar that redraws in place; otherwise print a plain line now and then. */
  readonly tty: boolean;
  /** Requests per minute the rate budget allows: the pace the estimate cannot beat. */
  readonly perMinute: () => number;
  /** Between plain lines; 10 s by default. */
  readonly intervalMs?: number;
  readonly now?: () => number;
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
  const now = options.now ?? Date.now;
  const interval = options.tty ? REDRAW_MS : (options.intervalMs ?? 10_000);
  let last: Progress | undefined;
  let drawnAt = Number.NEGATIVE_INFINITY;
  let drawn = false;

  const draw = (progress: Progress): void => {
    const line = describe(progress, options.perMinute(), now());
    if (options.tty) {
      out.write(`\r\x1b[K${line}`);
    } else {
      out.write(`${line}\n`);
    }
    drawnAt = now();
    drawn = true;
  };

  return {
    update(progress) {
      last = progress;
      if (now() - drawnAt >= interval) draw(progress);
    },
    end() {
      if (last && (options.tty || !drawn || now() > drawnAt)) draw(last);
      if (options.tty && drawn) out.write("\n");
    },
  };
}

export function describe(progress: Progress, perMinute: number, at: number): string {
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
  return `archive ${bar} ${done}/${planned} requests ${Math.floor(fraction * 100)}%${etaText}${current}`;
}

/** The slower of the pace seen so far and the pace the budget allows. */
export function estimateMs(left: number, done: number, elapsedMs: number, perMinute: number): number | undefined {
  if (left === 0) return 0;
  const budgetMs = (left / Math.max(1, perMinute)) * 60_000;
  if (done < 5 || elapsedMs <= 0) return budgetMs;
  return Math.max(budgetMs, (left * elapsedMs) / done);
}
