import type { BacktestPolicy, BacktestRow } from "./result.js";

/*
 * The table's words and figures, shared by `energy2mqtt backtest` and the web page's Backtest
 * (no runtime import: the page's bundle takes it as it is).
 */

/** Each policy's column head, in the table's order (BACKTEST_POLICIES's). */
export const BACKTEST_POLICY_HEADS: Readonly<Record<BacktestPolicy, string>> = {
  actual: "actual",
  "no-battery": "no battery",
  "eco-only": "eco only",
  rules: "rules",
  optimiser: "optimiser",
  "exact-optimum": "exact optimum",
};

/** One tariff's periods (in the rows' order) and the policies among its rows (in the table's order). */
export function backtestGrid(
  rows: readonly BacktestRow[],
  tariff: string,
): { readonly rows: BacktestRow[]; readonly policies: BacktestPolicy[]; readonly periods: string[] } {
  const own = rows.filter((row) => row.tariff === tariff);
  const policies = (Object.keys(BACKTEST_POLICY_HEADS) as BacktestPolicy[]).filter((policy) =>
    own.some((row) => row.policy === policy),
  );
  return { rows: own, policies, periods: [...new Set(own.map((row) => row.period))] };
}

/** A cell: the cost (GBP, 2 places) with what it saved against no battery in brackets; "-" when none. */
export function backtestCell(row: BacktestRow | undefined): string {
  if (row === undefined) return "-";
  return row.policy === "no-battery"
    ? row.costGbp.toFixed(2)
    : `${row.costGbp.toFixed(2)} (${row.savedVsNoBatteryGbp.toFixed(2)})`;
}
