import type { BacktestResult } from "./result.js";
import { BACKTEST_POLICY_HEADS, backtestCell, backtestGrid } from "./table-cells.js";

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
    const { rows, policies, periods } = backtestGrid(result.rows, tariff.name);
    const head = ["period", ...policies.map((policy) => BACKTEST_POLICY_HEADS[policy])];
    const body = periods.map((period) => [
      period,
      ...policies.map((policy) => backtestCell(rows.find((row) => row.period === period && row.policy === policy))),
    ]);
    const widths = head.map((text, i) => Math.max(text.length, ...body.map((row) => (row[i] ?? "").length)));
    const line = (cells: readonly string[]) =>
      cells
        .map((text, i) => (i === 0 ? text.padEnd(widths[i] ?? 0) : text.padStart(widths[i] ?? 0)))
        .join("  ")
        .trimEnd();
    lines.push("", `Tariff ${tariff.name}: ${tariff.source}`, line(head), ...body.map(line));
  }
  const rules = result.rules ?? [];
  if (rules.length > 0) {
    lines.push("", "Rules replayed (changes written to the inverter, windows opened):");
    for (const tariff of result.tariffs) {
      const mine = rules.filter((rule) => rule.tariff === tariff.name);
      if (mine.length === 0) continue;
      const words = mine.map(
        (rule) =>
          `${rule.name} ${rule.changes}/${rule.windows}${rule.notReplayed.length > 0 ? ` (not replayed: ${rule.notReplayed.join(", ")})` : ""}`,
      );
      lines.push(`  ${tariff.name}: ${words.join(", ")}`);
    }
  }
  const times = Object.entries(result.seconds).map(([policy, seconds]) => `${policy} ${seconds.toFixed(1)} s`);
  if (times.length > 0) lines.push("", `Run time: ${times.join(", ")}`);
  return `${lines.join("\n")}\n`;
}
