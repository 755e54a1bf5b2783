/**
 * How full a path's request budget is, in the daemon's words: what health, the web page and the
 * archive's progress read to say why polls or requests wait.
 *
 * The budget itself stays in cloud/ (cloud/rate-budget.ts): it follows the cloud service's own
 * rules (a window opened by the first counted request, the limits its answers' headers state, its
 * 429s), so it is not a generic counter of calls; the readers need only its state, which it gives
 * in this shape.
 */
export interface RequestBudgetState {
  /** The limit in force: the configured one, or the server's when that is stricter. */
  readonly limit: number;
  /** The configured limit, which the budget returns to when the server's limit loosens again. */
  readonly configured: number;
  /** Refusals for too many requests (429) in a row; while above 0 the budget backs off and sends one probe at a time. */
  readonly rateLimitedInARow: number;
  readonly used: number;
  readonly inFlight: number;
  readonly waiting: number;
  readonly windowEndsAt: number | undefined;
  readonly pausedUntil: number;
  /** Live requests a window is expected to carry (telemetry's plan), which background history leaves alone. */
  readonly expectedLive: number;
}

/** A request budget as its readers hold it: its state, nothing they could spend. */
export interface RequestBudgetReader {
  state(): RequestBudgetState;
}
