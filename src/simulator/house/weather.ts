import { hash01 } from "../random.js";

/** Minutes between the knots of the intra-day cloud curve. */
export const CLOUD_KNOT_MINUTES = 10;
const SALT_DAY = 7001;
const SALT_KNOT = 7002;

/**
 * The day's mean cloud cover in [0, 1]: cloudier in winter, and correlated with the day
 * before so that weather comes in spells.
 */
export function dailyCloudiness(seed: number, day: number, latitude: number): number {
  const dayOfYear = ((day % 365) + 365) % 365;
  const winter = Math.cos((2 * Math.PI * (dayOfYear - 15)) / 365) * (latitude >= 0 ? 1 : -1);
  const base = 0.55 + 0.15 * winter;
  const draw = 0.65 * hash01(seed, SALT_DAY, day) + 0.35 * hash01(seed, SALT_DAY, day - 1);
  return Math.min(0.98, Math.max(0.02, base + (draw - 0.5) * 1.2));
}

/**
 * Fills `knots` with the cloud cover every CLOUD_KNOT_MINUTES of the day. Partly cloudy days
 * vary most; clear and overcast days stay near their mean.
 */
export function cloudKnots(seed: number, day: number, latitude: number, knots: Float64Array, count: number): void {
  const mean = dailyCloudiness(seed, day, latitude);
  const amplitude = 2.4 * mean * (1 - mean);
  for (let knot = 0; knot < count; knot++) {
    const value = mean + amplitude * (hash01(seed, SALT_KNOT, day, knot) - 0.5);
    knots[knot] = Math.min(1, Math.max(0, value));
  }
}

/** Share of clear-sky output that reaches the panels under a cloud cover. */
export function clearness(cloud: number): number {
  return 1 - 0.85 * cloud ** 1.15;
}
