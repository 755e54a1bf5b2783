import type { CheapWindow, Prices, RuleStatus, SavingsSummary } from "../rules-runtime/index.js";
import { switchKey } from "./rules-discovery.js";

type Value = string | number | boolean | null;

export interface RulesStateInput {
  readonly rules: readonly RuleStatus[];
  readonly prices: Prices;
  readonly window: CheapWindow | undefined;
  /** Today's cost so far; undefined while no grid counters have been seen. */
  readonly cost: { readonly cost: number; readonly since: number } | undefined;
  /** What the battery saved yesterday and this month; undefined when the rules do not say. */
  readonly savings?: SavingsSummary | undefined;
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());
/** Sums of floats in money: keep what is meaningful and drop the 1e-17 tails. */
const round = (value: number | undefined, digits: number): number | null =>
  value === undefined ? null : Math.round(value * 10 ** digits) / 10 ** digits;

/** What a rule's switch shows as attributes. */
function ruleAttributes(rule: RuleStatus): Record<string, Value> {
  return {
    enabled: rule.enabled,
    dry_run: rule.dryRun,
    priority: rule.priority,
    next_window_start: iso(rule.nextWindow?.start),
    next_window_end: iso(rule.nextWindow?.end),
    last_run_at: iso(rule.lastRun?.at),
    last_run_ok: rule.lastRun?.ok ?? null,
    last_run_message: rule.lastRun?.message ?? null,
    plan_action: rule.planNow?.action ?? null,
    plan_reason: rule.planNow?.reason ?? null,
    plan_slot_start: iso(rule.planNow?.start),
    import_guard: rule.importGuard?.message ?? null,
    import_guard_since: iso(rule.importGuard?.since),
  };
}

/** The rules device's one retained state JSON (`<base>/rules`). */
export function rulesState(input: RulesStateInput): Record<string, unknown> {
  const { rules, prices, window, cost, savings } = input;
  return {
    import_price: round(prices.import, 5),
    export_price: round(prices.export, 5),
    currency: prices.currency,
    next_cheap_window_start: iso(window?.start),
    next_cheap_window_end: iso(window?.end),
    next_cheap_window_price: round(window?.price, 5),
    today_cost: cost === undefined ? null : round(cost.cost, 4),
    today_cost_last_reset: iso(cost?.since),
    saved_yesterday_vs_no_battery: round(savings?.yesterday?.vsNoBattery, 4),
    saved_yesterday_vs_eco_only: round(savings?.yesterday?.vsEcoOnly ?? undefined, 4),
    saved_yesterday_last_reset: iso(savings?.yesterday?.since),
    saved_yesterday_prices: savings?.yesterday?.prices ?? null,
    saved_yesterday_estimated_half_hours: savings?.yesterday?.estimatedHalfHours ?? null,
    saved_yesterday_unpriced_half_hours: savings?.yesterday?.unpricedHalfHours ?? null,
    saved_month_vs_no_battery: round(savings?.month?.vsNoBattery, 4),
    saved_month_vs_eco_only: round(savings?.month?.vsEcoOnly ?? undefined, 4),
    saved_month_last_reset: iso(savings?.month?.since),
    saved_month_prices: savings?.month?.prices ?? null,
    saved_month_estimated_half_hours: savings?.month?.estimatedHalfHours ?? null,
    saved_month_unpriced_half_hours: savings?.month?.unpricedHalfHours ?? null,
    ...Object.fromEntries(rules.map((rule) => [switchKey(rule.name), rule.enabled ? "ON" : "OFF"])),
    rules: Object.fromEntries(rules.map((rule) => [rule.name, ruleAttributes(rule)])),
  };
}
