import type { HistoryRecord } from "../../src/store/index.js";

/*
 * A known winter day in a store's inverter points, for the savings tests. Per half-hour (k = 0
 * is 00:00):
 * - load 0.5 kWh every half-hour; solar 1.5 kWh in each half-hour from 10:00 to 14:00 (k 20-27);
 * - what the real battery did: import 2.5 kWh (0.5 for the house, 2.0 into the battery) in each
 *   half-hour from 00:00 to 04:00 (k 0-7), nothing else imported; 1.0 kWh exported in each solar
 *   half-hour;
 * - the battery reads 20% at 00:00 (55% at every other point).
 */

export const TZ = "Europe/London";
export const SERIAL = "SA2026G001";
const FIVE_MINUTES = 300_000;
const HALF_HOUR = 1_800_000;
/** Wednesday 14 January 2026, 00:00 in London (GMT, so equal to UTC). */
export const DAY = Date.UTC(2026, 0, 14);

function halfHour(k: number): { load: number; solar: number; import: number; export: number } {
  const sunny = k >= 20 && k < 28;
  return { load: 0.5, solar: sunny ? 1.5 : 0, import: k < 8 ? 2.5 : 0, export: sunny ? 1 : 0 };
}

/** 5-minute points with lifetime counters rising evenly through each half-hour, over `days` days from `first` (a UTC midnight). */
export function knownDays(days: number, first = DAY): HistoryRecord[] {
  const out: HistoryRecord[] = [];
  const total = { import: 1000, export: 2000, consumption: 4000, solar: 5000 };
  for (let at = first; at <= first + days * 86_400_000; at += FIVE_MINUTES) {
    out.push({
      kind: "inverter.point",
      device: SERIAL,
      at,
      key: "",
      data: {
        status: "NORMAL",
        power: { battery: { percent: at % 86_400_000 === 0 ? 20 : 55, power: 0 } },
        total: {
          solar: total.solar,
          grid: { import: total.import, export: total.export },
          consumption: total.consumption,
        },
      },
    });
    const share = halfHour(Math.floor((at % 86_400_000) / HALF_HOUR));
    total.import += share.import / 6;
    total.export += share.export / 6;
    total.consumption += share.load / 6;
    total.solar += share.solar / 6;
  }
  return out;
}
