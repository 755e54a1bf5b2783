import type { HistoryRecord, JsonObject } from "../../../src/store/index.js";

export const SERIAL = "SD2024G001";
export const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";
export const T0 = Date.UTC(2025, 5, 1, 0, 0, 0);
export const FIVE_MINUTES = 300_000;

/** A data point shaped as GET /inverter/{serial}/data-points/{date} answers it, without its time. */
export function pointData(i: number): JsonObject {
  return {
    status: "NORMAL",
    power: {
      solar: { power: 100 + i, arrays: [{ array: 1, voltage: 300.7, current: 0.3 + i / 100, power: 100 + i }] },
      grid: { voltage: 239.1, current: 4.2, power: 150 - i, frequency: 50.01 },
      battery: { percent: 60, power: i === 0 ? 0 : -10 * i, temperature: 19.5 },
      consumption: { power: 267 + i },
      inverter: { temperature: 24.4, power: 267, output_voltage: 239.7, output_frequency: 50, eps_power: 0 },
    },
    today: {
      solar: round(0.01 * i),
      grid: { import: round(0.02 * i), export: 0 },
      battery: { charge: 2.64, discharge: 1.08 },
      consumption: round(0.03 * i),
      ac_charge: 0,
    },
    total: {
      solar: round(5969.62 + 0.01 * i),
      grid: { import: round(1030.28 + 0.02 * i), export: 2204.79 },
      battery: { charge: 2161.16, discharge: 1968.01 },
      consumption: round(4601.88 + 0.03 * i),
      ac_charge: 0,
    },
    is_metered: true,
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

export function points(count: number, start = T0, device = SERIAL): HistoryRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: "inverter.point",
    device,
    at: start + i * FIVE_MINUTES,
    key: "",
    data: pointData(i),
  }));
}
