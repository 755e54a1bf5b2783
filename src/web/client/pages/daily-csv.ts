import type { HistorySavings } from "../../api-types.js";
import type { DailyRow } from "./daily-rows.js";

const cell = (value: number | string | null): string => {
  if (value === null) return "";
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

const cents = (value: number): number => Math.round(value * 100) / 100;

/**
 * The rows shown, as CSV: one line a day, the units and each column's scope in the header (the
 * inverter shown, or the house), the grid's net export-positive as the MQTT entities count it,
 * money in the tariffs' currency, days in the daemon's zone. Then one line per month shown, its
 * first cell YYYY-MM: the house's whole month (the page's month lines, MQTT's saved_month).
 */
export function dailyCsv(
  rows: readonly DailyRow[],
  months: HistorySavings["months"],
  options: { readonly currency: string | null; readonly timeZone: string | null; readonly device: string },
): string {
  const money = options.currency ?? "currency";
  const inverter = `inverter ${options.device}`;
  const header = [
    `day (${options.timeZone ?? "local"})`,
    `${inverter}: grid import (kWh)`,
    `${inverter}: grid export (kWh)`,
    `${inverter}: grid net (kWh, export positive)`,
    `${inverter}: cost (${money})`,
    `house: cost with standing charge (${money})`,
    `house: saved vs no battery (${money})`,
    `house: saved vs eco only (${money})`,
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
    ]
      .map(cell)
      .join(","),
  );
  return `${[header.map(cell).join(","), ...lines, ...monthLines].join("\r\n")}\r\n`;
}
