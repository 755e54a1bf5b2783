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
 * inverter, the plant or the house shown, with the inverters summed; then the house's savings;
 * last the scope's own metered cost and saving, from its inverters' counters), the grid's net
 * export-positive as the MQTT entities count it, money in the tariffs' currency, days in the
 * daemon's zone. Then one line per month shown, its first cell YYYY-MM: the house's whole month
 * (the page's month lines, MQTT's saved_month) and the scope's own.
 */
export function dailyCsv(
  rows: readonly DailyRow[],
  months: { readonly house: HistorySavings["house"]["months"]; readonly own: HistorySavings["scope"]["months"] },
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
    `${inverter}: own cost metered from its counters, no standing charge (${money})`,
    `${inverter}: own saved vs no battery, from its counters (${money})`,
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
      row.ownCost,
      row.ownSavedVsNoBattery,
    ]
      .map(cell)
      .join(","),
  );
  const monthLines = months.house.map((month) => {
    const own = months.own.find((one) => one.month === month.month);
    return [
      month.month,
      null,
      null,
      null,
      null,
      cents(month.actual),
      cents(month.savedVsNoBattery),
      cents(month.savedVsEcoOnly),
      ...(several ? [null] : []),
      own ? cents(own.actual) : null,
      own ? cents(own.savedVsNoBattery) : null,
    ]
      .map(cell)
      .join(",");
  });
  return `${[header.map(cell).join(","), ...lines, ...monthLines].join("\r\n")}\r\n`;
}
