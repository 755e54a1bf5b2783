import type { DailyRow } from "./daily-rows.js";

const cell = (value: number | string | null): string => {
  if (value === null) return "";
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * The rows shown, as CSV: one line a day, the units in the header, the grid's net export-positive
 * as the MQTT entities count it, money in the tariffs' currency, days in the daemon's zone.
 */
export function dailyCsv(rows: readonly DailyRow[], currency: string | null, timeZone: string | null): string {
  const money = currency ?? "currency";
  const header = [
    `day (${timeZone ?? "local"})`,
    "grid import (kWh)",
    "grid export (kWh)",
    "grid net (kWh, export positive)",
    `cost (${money})`,
    `saved vs no battery (${money})`,
    `saved vs eco only (${money})`,
  ];
  const lines = rows.map((row) =>
    [row.day, row.importKwh, row.exportKwh, row.gridNetKwh, row.cost, row.savedVsNoBattery, row.savedVsEcoOnly]
      .map(cell)
      .join(","),
  );
  return `${[header.map(cell).join(","), ...lines].join("\r\n")}\r\n`;
}
