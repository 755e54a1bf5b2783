import { BACKTEST_POLICIES, type BacktestResult, type BacktestRow } from "./result.js";

const POLICY_HEADS: Record<(typeof BACKTEST_POLICIES)[number], string> = {
  actual: "actual",
  "no-battery": "no battery",
  "eco-only": "eco only",
  rules: "rules",
  optimiser: "optimiser",
  "exact-optimum": "exact optimum",
};

/**
 * The result as text: the assumptions, then per tariff a table of periods by policy, each cell the
 * cost (GBP) with what it saved against no battery in brackets, then each policy's run time.
 */
export function backtestTable(result: BacktestResult): string {
  const lines = [
    `Backtest ${result.from} to ${result.to} (${result.timeZone}), by ${result.by}: cost in GBP (saved vs no battery)`,
    "Assumptions:",
    ...result.assumptions.map((line) => `  - ${line}`),
  ];
  for (const tariff of result.tariffs) {
    const rows = result.rows.filter((row) => row.tariff === tariff.name);
    const policies = BACKTEST_POLICIES.filter((policy) => rows.some((row) => row.policy === policy));
    const periods = [...new Set(rows.map((row) => row.period))];
    const cell = (row: BacktestRow | undefined) =>
      row === undefined
        ? "-"
        : row.policy === "no-battery"
          ? row.costGbp.toFixed(2)
          : `${row.costGbp.toFixed(2)} (${row.savedVsNoBatteryGbp.toFixed(2)})`;
    const head = ["period", ...policies.map((policy) => POLICY_HEADS[policy])];
    const body = periods.map((period) => [
      period,
      ...policies.map((policy) => cell(rows.find((row) => row.period === period && row.policy === policy))),
    ]);
    const widths = head.map((text, i) => Math.max(text.length, ...body.map((row) => (row[i] ?? "").length)));
    const line = (cells: readonly string[]) =>
      cells
        .map((text, i) => (i === 0 ? text.padEnd(widths[i] ?? 0) : text.padStart(widths[i] ?? 0)))
        .join("  ")
        .trimEnd();
    lines.push("", `Tariff ${tariff.name}: ${tariff.source}`, line(head), ...body.map(line));
  }
  const times = Object.entries(result.seconds).map(([policy, seconds]) => `${policy} ${seconds.toFixed(1)} s`);
  if (times.length > 0) lines.push("", `Run time: ${times.join(", ")}`);
  return `${lines.join("\n")}\n`;
}
