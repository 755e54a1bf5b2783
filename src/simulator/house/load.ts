import { hash01, hash32, sequence } from "../random.js";

const MINUTES_PER_DAY = 1440;
const NOISE_KNOT_MINUTES = 15;
const SALT_DAY = 8001;
const SALT_SPIKES = 8002;
const SALT_NOISE = 8003;

/** [centre hour, width in hours, height] of the bumps over a base load of 0.45. */
const WEEKDAY_BUMPS: readonly (readonly [number, number, number])[] = [
  [7.25, 0.9, 0.9],
  [12.5, 1.5, 0.35],
  [18.5, 1.6, 1.3],
  [21.5, 1.2, 0.6],
];
const WEEKEND_BUMPS: readonly (readonly [number, number, number])[] = [
  [9, 1.3, 0.8],
  [13, 2, 0.6],
  [18, 1.6, 1.2],
  [21.5, 1.2, 0.6],
];

function shape(bumps: readonly (readonly [number, number, number])[]): Float64Array {
  const values = new Float64Array(MINUTES_PER_DAY);
  let sum = 0;
  for (let minute = 0; minute < MINUTES_PER_DAY; minute++) {
    const hour = minute / 60;
    let value = 0.45;
    for (const [centre, width, height] of bumps) value += height * Math.exp(-(((hour - centre) / width) ** 2) / 2);
    values[minute] = value;
    sum += value;
  }
  for (let minute = 0; minute < MINUTES_PER_DAY; minute++)
    values[minute] = ((values[minute] ?? 0) * MINUTES_PER_DAY) / sum;
  return values;
}

let shapes: { weekday: Float64Array; weekend: Float64Array } | undefined;

/** The smooth daily load shapes, mean 1 per minute; built on first use. */
function loadShapes(): { weekday: Float64Array; weekend: Float64Array } {
  shapes ??= { weekday: shape(WEEKDAY_BUMPS), weekend: shape(WEEKEND_BUMPS) };
  return shapes;
}

/** [power W, minutes, mean count a day, earliest hour, latest hour] of appliances that spike the load. */
const APPLIANCES: readonly (readonly [number, number, number, number, number])[] = [
  [2800, 3, 4.5, 6.5, 22.5],
  [2000, 40, 0.9, 17, 19.5],
  [2000, 15, 0.45, 9, 16],
  [1800, 20, 0.5, 19, 23],
  [1100, 4, 2, 7, 21],
];
const EXPECTED_SPIKE_WH = APPLIANCES.reduce((sum, [watts, minutes, count]) => sum + (watts * minutes * count) / 60, 0);

// Scratch buffers: days are simulated one at a time, synchronously.
const spikes = new Float32Array(MINUTES_PER_DAY);
const noise = new Float64Array(MINUTES_PER_DAY / NOISE_KNOT_MINUTES);

/** 1970-01-01 was a Thursday. */
export function isWeekend(day: number): boolean {
  return (((day + 3) % 7) + 7) % 7 >= 5;
}

/** The day's consumption target in Wh: the annual figure, more in winter, ±15% day to day. */
export function dailyLoadWh(seed: number, day: number, annualKwh: number, latitude: number): number {
  const dayOfYear = ((day % 365) + 365) % 365;
  const winter = Math.cos((2 * Math.PI * (dayOfYear - 15)) / 365) * (latitude >= 0 ? 1 : -1);
  const variation = 0.85 + 0.3 * hash01(seed, SALT_DAY, day);
  return ((annualKwh * 1000) / 365.25) * (1 + 0.18 * winter) * variation;
}

/**
 * Fills `out` with the load in W for each minute step of a day, `minutes` giving each step's
 * local minute of day. Appliance spikes are drawn from the seed; the smooth part carries the
 * rest of the day's energy.
 */
export function fillLoad(
  seed: number,
  day: number,
  annualKwh: number,
  latitude: number,
  minutes: Uint16Array,
  steps: number,
  out: Float32Array,
): void {
  const targetWh = dailyLoadWh(seed, day, annualKwh, latitude);
  const profile = isWeekend(day) ? loadShapes().weekend : loadShapes().weekday;
  const spikeScale = Math.min(1, (0.3 * targetWh) / EXPECTED_SPIKE_WH);
  spikes.fill(0);
  let spikeWh = 0;
  const random = sequence(hash32(seed, SALT_SPIKES, day));
  for (const [watts, duration, meanCount, earliest, latest] of APPLIANCES) {
    const count = Math.floor(meanCount * 2 * random() + 0.5);
    for (let index = 0; index < count; index++) {
      const start = Math.floor((earliest + (latest - earliest) * random()) * 60);
      const power = watts * spikeScale;
      for (let minute = start; minute < Math.min(MINUTES_PER_DAY, start + duration); minute++) {
        spikes[minute] = (spikes[minute] ?? 0) + power;
        spikeWh += power / 60;
      }
    }
  }
  const smoothWh = Math.max(0.4 * targetWh, targetWh - spikeWh);
  const meanW = smoothWh / 24;
  for (let knot = 0; knot < noise.length; knot++) noise[knot] = 0.92 + 0.16 * hash01(seed, SALT_NOISE, day, knot);
  for (let step = 0; step < steps; step++) {
    const minute = minutes[step] ?? 0;
    const factor = noise[Math.floor(minute / NOISE_KNOT_MINUTES)] ?? 1;
    out[step] = meanW * (profile[minute] ?? 1) * factor + (spikes[minute] ?? 0);
  }
}
