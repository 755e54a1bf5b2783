import type { HistoryRecord } from "../../src/store/index.js";

/**
 * A house's 5-minute inverter points over the `days` days before `until`: `baseWatts` of use,
 * 2 kW from 17:00 to 20:00 UTC, and solar as a midday hump peaking at `solarPeakWatts` (none when
 * left out): what the optimiser's forecasts learn from.
 */
export function eveningPeakPoints(options: {
  readonly device: string;
  readonly until: number;
  readonly days: number;
  readonly baseWatts: number;
  readonly solarPeakWatts?: number;
}): HistoryRecord[] {
  const rows: HistoryRecord[] = [];
  for (let at = options.until - options.days * 86_400_000; at < options.until; at += 300_000) {
    const hour = (at % 86_400_000) / 3_600_000;
    const solar = Math.round(Math.max(0, Math.sin(((hour - 8) / 8) * Math.PI)) * (options.solarPeakWatts ?? 0));
    rows.push({
      kind: "inverter.point",
      device: options.device,
      at,
      key: "",
      data: {
        status: "NORMAL",
        power: {
          solar: { power: solar },
          consumption: { power: hour >= 17 && hour < 20 ? 2000 : options.baseWatts },
        },
      },
    });
  }
  return rows;
}
