import type { SolarForecastDay } from "../../store/index.js";

/**
 * "Solar forecast against actual (solcast), last 2 days: 2026-11-24 mean error 0.12 kWh a
 * half-hour (8.1 kWh forecast, 7.3 actual); 2026-11-23 ..." or that none is kept yet.
 */
export function forecastDaysLine(provider: string, days: readonly SolarForecastDay[]): string {
  if (days.length === 0)
    return `Solar forecast against actual (${provider}): no day compared yet (the store keeps each answer and compares it once the day has passed)`;
  const parts = days.map(
    (day) =>
      `${day.day} mean error ${day.maeKwh.toFixed(2)} kWh a half-hour (${day.forecastKwh.toFixed(1)} kWh forecast, ${day.actualKwh.toFixed(1)} actual)`,
  );
  return `Solar forecast against actual (${provider}), last ${days.length === 1 ? "day" : `${days.length} days`}: ${parts.join("; ")}`;
}
