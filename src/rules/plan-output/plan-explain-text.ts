import type { ExplainedSlot } from "../../optimiser/index.js";

/**
 * The optimiser's half-hours as a fixed-width table: local start (24-hour), action, prices (the
 * export price only where the half-hour exports), SoC at its end, forecast load and solar, the
 * car's charging (when a car is planned), cost, running total and the reason.
 */
export function explainedTable(rows: readonly ExplainedSlot[], currency: string): string[] {
  const money = (value: number) => value.toFixed(4).padStart(8);
  const car = rows.some((row) => row.carKwh !== undefined);
  const header = [
    "time".padEnd(16),
    "action".padEnd(8),
    "import".padStart(8),
    "export".padStart(8),
    "SoC".padStart(6),
    "load".padStart(6),
    "solar".padStart(6),
    ...(car ? ["car".padStart(6)] : []),
    "cost".padStart(8),
    "total".padStart(8),
    " reason",
  ].join(" ");
  const units = car ? "load, solar and car in kWh, the car's charging within the load" : "load and solar in kWh";
  const lines = [`(prices, cost and total in ${currency}; ${units}; SoC at the half-hour's end)`, header];
  for (const row of rows) {
    const exports = row.action === "export" || row.exportKwh > 0;
    lines.push(
      [
        row.time.padEnd(16),
        row.action.padEnd(8),
        money(row.importPrice),
        exports ? money(row.exportPrice) : "-".padStart(8),
        `${row.socPercent.toFixed(0)}%`.padStart(6),
        row.loadKwh.toFixed(2).padStart(6),
        row.solarKwh.toFixed(2).padStart(6),
        ...(car ? [(row.carKwh ?? 0).toFixed(2).padStart(6)] : []),
        money(row.cost),
        money(row.runningCost),
        ` ${row.reason}`,
      ].join(" "),
    );
  }
  return lines;
}
