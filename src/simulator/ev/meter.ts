import type { z } from "zod";
import type { chargerMeterRecord, measurement } from "../../cloud/index.js";
import { hash01 } from "../random.js";
import { DAY_MS, HOUR_MS } from "./plan.js";
import type { MeterState } from "./types.js";

type Measurement = z.input<typeof measurement>;
export type MeterRecord = z.input<typeof chargerMeterRecord>;

/** The charger's only meter. */
export const METER_ID = 0;

/**
 * Measurand and unit numbers of the reference's tables; a null unit is implied. Public clients
 * of the real service read the energy register as Wh and powers as kW (real-responses README),
 * so the simulator sends them so, each labelled with its unit code: a client that honours the
 * code and one that assumes those units both read them right.
 */
const M = {
  currentImport: { measurand: 1, unit: 10 },
  currentOffered: { measurand: 2, unit: 10 },
  /** Wh (unit 0). */
  energyImportRegister: { measurand: 4, unit: 0 },
  frequency: { measurand: 11, unit: null },
  /** kW (unit 5). */
  powerImport: { measurand: 13, unit: 5 },
  powerOffered: { measurand: 15, unit: 5 },
  soc: { measurand: 19, unit: 15 },
  temperature: { measurand: 20, unit: 12 },
  voltage: { measurand: 21, unit: 11 },
} as const;

export interface MeterContext {
  seed: number;
  voltage: number;
  phases: number;
}

const round = (value: number, places: number): number => {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
};

/** ISO 8601 UTC without milliseconds, as the service writes timestamps. */
export function isoSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** Charger enclosure temperature: seasonal and daily swings, warmer while charging. */
function temperatureAt(ctx: MeterContext, ms: number, powerW: number): number {
  const yearAngle = (2 * Math.PI * ((ms / DAY_MS - 110) % 365.25)) / 365.25;
  const dayAngle = (2 * Math.PI * ((ms % DAY_MS) / HOUR_MS - 9)) / 24;
  const noise = (hash01(ctx.seed, "temperature", ms) - 0.5) * 0.8;
  return 12 + 7 * Math.sin(yearAngle) + 4 * Math.sin(dayAngle) + (powerW / 1000) * 1.5 + noise;
}

/** One five-minute record holding the measurands asked for; null when none of them applies. */
export function meterRecord(
  ctx: MeterContext,
  ms: number,
  state: MeterState,
  wanted: ReadonlySet<number> | null,
): MeterRecord | null {
  const voltage = round(ctx.voltage + (hash01(ctx.seed, "voltage", ms) - 0.5) * 8 - (state.powerW > 0 ? 1.5 : 0), 1);
  const all: Measurement[] = [
    { ...M.energyImportRegister, value: round(state.registerKwh * 1000, 1) },
    { ...M.powerImport, value: round(state.powerW / 1000, 3) },
    // The current the measured power draws at the measured voltage.
    { ...M.currentImport, value: round(state.powerW / (voltage * ctx.phases), 2) },
    { ...M.currentOffered, value: round(state.offeredA, 1) },
    { ...M.powerOffered, value: round((state.offeredA * ctx.voltage * ctx.phases) / 1000, 3) },
    { ...M.voltage, value: voltage },
    { ...M.frequency, value: round(50 + (hash01(ctx.seed, "frequency", ms) - 0.5) * 0.1, 2) },
    { ...M.temperature, value: round(temperatureAt(ctx, ms, state.powerW), 1) },
  ];
  // The charger only learns the state of charge from a plugged-in car.
  if (state.socPercent !== null) all.push({ ...M.soc, value: Math.round(state.socPercent) });
  const measurements = wanted ? all.filter((m) => wanted.has(m.measurand)) : all;
  if (measurements.length === 0) return null;
  return { meter_id: METER_ID, timestamp: isoSeconds(ms), measurements };
}
