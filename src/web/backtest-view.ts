import type { BacktestResult } from "../backtest/result.js";

/** What GET /api/backtest/<id> answers (the page reads it: no runtime import). */
export interface BacktestJobView {
  readonly id: string;
  readonly state: "running" | "done" | "failed";
  /** 0 to 1: the share of the tariffs' and policies' replays done. */
  readonly fraction: number;
  /** What it is doing now, in words. */
  readonly phase: string;
  readonly seconds: number;
  /** When done: what `energy2mqtt backtest --json` prints. */
  readonly result: BacktestResult | null;
  /** Why it failed, in the CLI's words. */
  readonly error: string | null;
}
