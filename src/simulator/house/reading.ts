import { hash01 } from "../random.js";
import type { Powers } from "./day-run.js";
import type { HouseContext } from "./spec.js";

const SALT_VOLTAGE = 9101;
const SALT_FREQUENCY = 9102;

/** Everything a data point or live reading shows at an instant, before wire formatting. */
export interface Reading extends Powers {
  readonly timeMs: number;
  readonly socPercent: number;
  readonly arraysW: readonly number[];
  readonly arrayKwp: readonly number[];
  readonly batteryTempC: number;
  readonly inverterTempC: number;
  readonly gridVoltage: number;
  readonly gridFrequency: number;
  readonly phases: 1 | 3;
}

/** Outdoor temperature: a seasonal swing and a daily one peaking mid-afternoon. */
export function ambientC(latitude: number, day: number, localMinute: number): number {
  const dayOfYear = ((day % 365) + 365) % 365;
  const summer = Math.cos((2 * Math.PI * (dayOfYear - 200)) / 365) * (latitude >= 0 ? 1 : -1);
  const afternoon = Math.cos((2 * Math.PI * (localMinute - 900)) / 1440);
  return 11 + 7 * summer + 4 * afternoon;
}

export function reading(
  context: HouseContext,
  day: number,
  localMinute: number,
  timeMs: number,
  socPercent: number,
  powers: Powers,
  shares: readonly number[],
): Reading {
  const { plant } = context;
  const ambient = ambientC(context.latitude, day, localMinute);
  const batteryTempC = 14 + 0.3 * (ambient - 10) + (6 * Math.abs(powers.batteryW)) / Math.max(1, plant.maxDischargeW);
  const inverterTempC = batteryTempC + 4 + (18 * Math.abs(powers.inverterW)) / Math.max(1, plant.inverterMaxW);
  const slot = Math.floor(timeMs / 300_000);
  const gridVoltage = 239 + 6 * (hash01(context.seed, SALT_VOLTAGE, slot) - 0.5) + (powers.gridW / 1000) * 0.8;
  const gridFrequency = 50 + 0.12 * (hash01(context.seed, SALT_FREQUENCY, slot) - 0.5);
  return {
    pvW: powers.pvW,
    loadW: powers.loadW,
    batteryW: powers.batteryW,
    gridW: powers.gridW,
    inverterW: powers.inverterW,
    timeMs,
    socPercent,
    arraysW: context.pvStrings ? shares.map((share) => powers.pvW * share) : [],
    arrayKwp: context.site.arrays.map((array) => array.kwp),
    batteryTempC,
    inverterTempC,
    gridVoltage,
    gridFrequency,
    phases: context.phases,
  };
}
