import type { HistorySavings, HistoryScopeName } from "../../api-types.js";
import type { DailyRow } from "./daily-rows.js";

const cell = (value: number | string | null): string => {
  if (value === null) return "";
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

const cents = (value: number): number => Math.round(value * 100) / 100;

/**
 * The rows shown, as CSV: one line a day, the units and each column's scope in the header (the
 * inverter, the plant or the house shown, with the inverters summed; then the house's savings), the grid's net export-positive as the MQTT entities count it,
 * money in the tariffs' currency, days in the daemon's zone. Then one line per month shown, its
 * first cell YYYY-MM: the house's whole month (the page's month lines, MQTT's saved_month).
 */
export function dailyCsv(
  rows: readonly DailyRow[],
  months: HistorySavings["months"],
  options: { readonly currency: string | null; readonly timeZone: string | null; readonly scope: HistoryScopeName },
): string {
  const money = options.currency ?? "currency";
  const { scope } = options;
  const summed = `${scope.members.join(" + ")} summed`;
  const inverter =
    scope.kind === "inverter"
      ? `inverter ${scope.id}`
      : scope.kind === "plant"
        ? `plant ${scope.id.slice("plant:".length)} (${summed})`
        : `house (${summed})`;
  const several = scope.kind !== "inverter";
  const header = [
    `day (${options.timeZone ?? "local"})`,
    `${inverter}: grid import (kWh)`,
    `${inverter}: grid export (kWh)`,
    `${inverter}: grid net (kWh, export positive)`,
    `${inverter}: cost (${money})`,
    `house: cost with standing charge (${money})`,
    `house: saved vs no battery (${money})`,
    `house: saved vs eco only (${money})`,
    ...(several ? [`${inverter}: inverters with a row that day (of ${scope.members.length})`] : []),
  ];
  const lines = rows.map((row) =>
    [
      row.day,
      row.importKwh,
      row.exportKwh,
      row.gridNetKwh,
      row.cost,
      row.houseCost,
      row.savedVsNoBattery,
      row.savedVsEcoOnly,
      ...(several ? [row.inverters] : []),
    ]
      .map(cell)
      .join(","),
  );
  const monthLines = months.map((month) =>
    [
      month.month,
      null,
      null,
      null,
      null,
      cents(month.actual),
      cents(month.savedVsNoBattery),
      cents(month.savedVsEcoOnly),
      ...(several ? [null] : []),
    ]
      .map(cell)
      .join(","),
  );
  return `${[header.map(cell).join(","), ...lines, ...monthLines].join("\r\n")}\r\n`;
}
