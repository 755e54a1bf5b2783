import { z } from "zod";
import { HOUR_MS, offsetMs, SLOT_MS } from "../time/index.js";

/*
 * Forecasts of a half-hourly series (the house's consumption, its solar, or a price) for the
 * slots ahead, from past samples only. The method:
 *
 * 1. Profile: for each half-hour of the local day, a weighted mean of the past `days` days at
 *    that half-hour. A sample's weight halves every `halfLifeDays` of age, and samples from the
 *    same weekday as the slot forecast count `weekdayWeight` times more, and those of the same kind
 *    of day (weekday or weekend) `dayKindWeight` times more (1 and 1: days not told apart).
 * 2. Correction by the last days: the ratio of what the last `correctionDays` days really were
 *    to what the profile says for them (clamped to [0.5, 2]) scales the forecast; its effect
 *    fades with the lead time, halving every `correctionHalfLifeHours`, since a sunny or busy day
 *    says more about the next hours than about the day after.
 * 3. Persistence (nowcastHalfLifeHours): how far the last half-hour was above or below the
 *    corrected profile carries into the next half-hours, halving every that many hours.
 * A slot with no past samples at its half-hour takes the mean of all samples (0 when none).
 */

export const DAY_MS = 24 * HOUR_MS;

export const halfHourSampleSchema = z.strictObject({
  /** Start of the half-hour, epoch ms. */
  start: z.number().int(),
  kwh: z.number().finite(),
});
export type HalfHourSample = z.infer<typeof halfHourSampleSchema>;

export interface ForecastOptions {
  /** The first slot forecast is the half-hour holding `from`. */
  readonly from: number;
  readonly timeZone: string;
  /** How many half-hours ahead; 96 (48 h) by default. */
  readonly slots?: number;
  /** How many past days the profile learns from; 28 by default. */
  readonly days?: number;
  readonly halfLifeDays?: number;
  readonly weekdayWeight?: number;
  /** How many times more a sample of the same kind of day (weekday or weekend) counts; 1 by default. */
  readonly dayKindWeight?: number;
  /** 0 leaves the correction out. */
  readonly correctionDays?: number;
  readonly correctionHalfLifeHours?: number;
  /**
   * When set, the last half-hour's departure from the profile carries into the next ones,
   * halving every this many hours (persistence for the first hours ahead).
   */
  readonly nowcastHalfLifeHours?: number;
}

export const HOUSE_LOAD: Omit<ForecastOptions, "from" | "timeZone"> = {
  days: 28,
  halfLifeDays: 10,
  weekdayWeight: 2,
  dayKindWeight: 8,
  correctionDays: 1,
  correctionHalfLifeHours: 12,
  nowcastHalfLifeHours: 1,
};
/** How prices beyond the published ones are forecast: as the planner-year bench's MPC (its row 5). */
export const PRICE_FORECAST: Omit<ForecastOptions, "from" | "timeZone"> = {
  days: 14,
  halfLifeDays: 3,
  weekdayWeight: 1.5,
  correctionDays: 1,
  correctionHalfLifeHours: 24,
};
export const HOUSE_SOLAR: Omit<ForecastOptions, "from" | "timeZone"> = {
  days: 14,
  halfLifeDays: 4,
  weekdayWeight: 1,
  dayKindWeight: 1,
  correctionDays: 1,
  correctionHalfLifeHours: 12,
  nowcastHalfLifeHours: 1,
};

const SLOTS_PER_DAY = 48;
const SLOTS_PER_WEEK = 7 * SLOTS_PER_DAY;
// 1970-01-01 was a Thursday: day numbers count from it, Monday 0 as in time/.
const THURSDAY = 3;

/** Per zone, its offsets per UTC hour in blocks of BLOCK_HOURS (NaN: not worked out yet). */
const offsets = new Map<string, Map<number, Float64Array>>();
const BLOCK_HOURS = 4096;
/** The block asked for last: a forecast's samples fall in one or two, and a backtest asks millions of times. */
let lastBlock: { zone: string; key: number; hours: Float64Array } = {
  zone: "",
  key: Number.NaN,
  hours: new Float64Array(0),
};

/** The zone's offset at the start of UTC hour `hour`, memoised. */
function hourOffset(hour: number, timeZone: string): number {
  const key = Math.floor(hour / BLOCK_HOURS);
  if (lastBlock.key !== key || lastBlock.zone !== timeZone) {
    let zone = offsets.get(timeZone);
    if (zone === undefined || zone.size > 64) {
      zone = new Map();
      offsets.set(timeZone, zone);
    }
    let hours = zone.get(key);
    if (hours === undefined) {
      hours = new Float64Array(BLOCK_HOURS).fill(Number.NaN);
      zone.set(key, hours);
    }
    lastBlock = { zone: timeZone, key, hours };
  }
  const index = hour - key * BLOCK_HOURS;
  let offset = lastBlock.hours[index] as number;
  if (Number.isNaN(offset)) {
    offset = offsetMs(hour * HOUR_MS, timeZone);
    lastBlock.hours[index] = offset;
  }
  return offset;
}

/**
 * The local weekday (0 Monday to 6 Sunday) and half-hour of the day (0 to 47: a 25-hour day
 * reuses its repeated hour's half-hours) of an instant, as one number: weekday * 48 + half-hour.
 */
function localSlot(ms: number, timeZone: string): number {
  const local = ms + hourOffset(Math.floor(ms / HOUR_MS), timeZone);
  // Local half-hours since 1970-01-01 (a Thursday), counted from a Monday, wrapped to the week.
  const index = (Math.floor(local / SLOT_MS) + THURSDAY * SLOTS_PER_DAY) % SLOTS_PER_WEEK;
  return index < 0 ? index + SLOTS_PER_WEEK : index;
}

/** Per half-life, the weight of a sample by its age in whole half-hours (worked out as they are asked for). */
const weightsByAge = new Map<number, Float64Array>();
const MOST_WEIGHED_SLOTS = 60 * SLOTS_PER_DAY;

/** The weights by whole half-hours of age for one half-life (NaN: not worked out yet). */
function weightsOf(halfLife: number): Float64Array {
  let weights = weightsByAge.get(halfLife);
  if (!weights) {
    weights = new Float64Array(MOST_WEIGHED_SLOTS).fill(Number.NaN);
    if (weightsByAge.size < 16) weightsByAge.set(halfLife, weights);
  }
  return weights;
}

/**
 * A sample's weight: halving every `halfLife` days of `age` (ms). A replay's forecasts weigh the
 * same few thousand ages millions of times, so the power is kept per whole half-hour of age in
 * `weights` (weightsOf the half-life).
 */
function ageWeight(age: number, halfLife: number, weights: Float64Array): number {
  const slots = age / SLOT_MS;
  if (!Number.isInteger(slots) || slots < 0 || slots >= MOST_WEIGHED_SLOTS) return 0.5 ** (age / DAY_MS / halfLife);
  let weight = weights[slots] as number;
  if (Number.isNaN(weight)) {
    weight = 0.5 ** (age / DAY_MS / halfLife);
    weights[slots] = weight;
  }
  return weight;
}

/** Weighted sums per weekday and half-hour of the day. */
class Profile {
  private readonly sums = new Float64Array(7 * SLOTS_PER_DAY * 2);

  constructor(
    private readonly weekdayWeight: number,
    private readonly dayKindWeight: number,
  ) {}

  /** `at`: localSlot's weekday and half-hour. */
  add(at: number, value: number, weight: number): void {
    const index = at * 2;
    this.sums[index] = (this.sums[index] as number) + weight * value;
    this.sums[index + 1] = (this.sums[index + 1] as number) + weight;
  }

  /** The profile's value, or undefined with no sample at that half-hour. */
  at(slot: number): number | undefined {
    let sum = 0;
    let weight = 0;
    const slotWeekday = Math.floor(slot / SLOTS_PER_DAY);
    const slotOfDay = slot - slotWeekday * SLOTS_PER_DAY;
    const weekend = slotWeekday >= 5;
    for (let weekday = 0; weekday < 7; weekday++) {
      const factor =
        (weekday === slotWeekday ? this.weekdayWeight : 1) * (weekday >= 5 === weekend ? this.dayKindWeight : 1);
      const index = (weekday * SLOTS_PER_DAY + slotOfDay) * 2;
      sum += factor * (this.sums[index] as number);
      weight += factor * (this.sums[index + 1] as number);
    }
    return weight > 0 ? sum / weight : undefined;
  }
}

/**
 * One value per half-hour from the slot holding `from`, learned from the samples that started
 * before that slot (later ones are ignored: a forecast sees only the past).
 */
export function forecastSeries(samples: readonly HalfHourSample[], options: ForecastOptions): number[] {
  const slots = options.slots ?? 96;
  const days = options.days ?? 28;
  const halfLife = options.halfLifeDays ?? 7;
  const correctionDays = options.correctionDays ?? 1;
  const correctionHalfLife = options.correctionHalfLifeHours ?? 12;
  const first = Math.floor(options.from / SLOT_MS) * SLOT_MS;
  const since = first - days * DAY_MS;
  const profile = new Profile(options.weekdayWeight ?? 1, options.dayKindWeight ?? 1);
  const used = UsedSamples.empty(samples.length);
  const weights = weightsOf(halfLife);
  let total = 0;
  for (const sample of samples) {
    if (sample.start < since || sample.start >= first) continue;
    const at = localSlot(sample.start, options.timeZone);
    profile.add(at, sample.kwh, ageWeight(first - sample.start, halfLife, weights));
    used.add(at, sample.start, sample.kwh);
    total += sample.kwh;
  }
  const fallback = used.count > 0 ? total / used.count : 0;
  const ratio = correctionRatio(used, profile, first - correctionDays * DAY_MS);
  const scaled = (index: number, base: number): number =>
    base * (1 + (ratio - 1) * 0.5 ** ((index * SLOT_MS) / HOUR_MS / correctionHalfLife));
  const last = used.count - 1;
  const anomaly =
    options.nowcastHalfLifeHours !== undefined && last >= 0 && used.start[last] === first - SLOT_MS
      ? (used.kwh[last] as number) - scaled(-1, profile.at(used.at[last] as number) ?? fallback)
      : 0;
  const out: number[] = [];
  for (let index = 0; index < slots; index++) {
    const start = first + index * SLOT_MS;
    const base = scaled(index, profile.at(localSlot(start, options.timeZone)) ?? fallback);
    const carried = anomaly * 0.5 ** (((index + 1) * SLOT_MS) / HOUR_MS / (options.nowcastHalfLifeHours ?? 1));
    out.push(Math.max(0, base + carried));
  }
  return out;
}

/** The samples a forecast learned from, in their order: where each falls in the week, its start and its value. */
class UsedSamples {
  readonly at: Int32Array;
  readonly start: Float64Array;
  readonly kwh: Float64Array;
  count = 0;
  /** One kept between forecasts (they run one at a time): a replay makes millions of them. */
  private static kept = new UsedSamples(0);

  static empty(most: number): UsedSamples {
    if (UsedSamples.kept.at.length < most) UsedSamples.kept = new UsedSamples(most);
    UsedSamples.kept.count = 0;
    return UsedSamples.kept;
  }

  private constructor(most: number) {
    this.at = new Int32Array(most);
    this.start = new Float64Array(most);
    this.kwh = new Float64Array(most);
  }

  add(at: number, start: number, kwh: number): void {
    this.at[this.count] = at;
    this.start[this.count] = start;
    this.kwh[this.count] = kwh;
    this.count++;
  }
}

function correctionRatio(used: UsedSamples, profile: Profile, since: number): number {
  let actual = 0;
  let expected = 0;
  for (let index = 0; index < used.count; index++) {
    if ((used.start[index] as number) < since) continue;
    actual += used.kwh[index] as number;
    expected += profile.at(used.at[index] as number) ?? 0;
  }
  if (expected <= 1e-9 || actual <= 0) return 1;
  return Math.min(2, Math.max(0.5, actual / expected));
}

/** The house's consumption for the next slots (the HOUSE_LOAD settings unless overridden). */
export function forecastLoad(samples: readonly HalfHourSample[], options: ForecastOptions): number[] {
  return forecastSeries(samples, { ...HOUSE_LOAD, ...options });
}

/** The house's solar generation for the next slots (the HOUSE_SOLAR settings unless overridden). */
export function forecastSolar(samples: readonly HalfHourSample[], options: ForecastOptions): number[] {
  return forecastSeries(samples, { ...HOUSE_SOLAR, ...options });
}

/**
 * The last forecast of one series, kept with what it was made from: each re-plan between two
 * publications of prices (every half-hour, 48 a day in a backtest's replay) asks for the same one
 * again. The optimise rule and the backtest's optimiser keep one per price side.
 */
export class KeptForecast {
  private samples: readonly HalfHourSample[] = [];
  private key = "";
  private forecast: number[] = [];

  /**
   * forecastSeries's first `options.slots`: its n-th half-hour does not depend on how many are
   * asked for, so one made for a day more serves the re-plans until the next publication.
   */
  of(samples: readonly HalfHourSample[], options: ForecastOptions & { readonly slots: number }): number[] {
    // Only the samples of the days it learns from: the history's oldest, which drop off every
    // half-hour, are older than that (it reaches back from now, the forecast from the first
    // half-hour without a published price).
    const since = Math.floor(options.from / SLOT_MS) * SLOT_MS - (options.days ?? 28) * DAY_MS;
    const learned = samples.filter((sample) => sample.start >= since);
    const key = `${options.from} ${options.timeZone}`;
    if (key !== this.key || this.forecast.length < options.slots || !sameSamples(learned, this.samples)) {
      this.forecast = forecastSeries(learned, { ...options, slots: options.slots + 48 });
      this.samples = learned;
      this.key = key;
    }
    return this.forecast.slice(0, options.slots);
  }
}

function sameSamples(a: readonly HalfHourSample[], b: readonly HalfHourSample[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) {
    const one = a[index] as HalfHourSample;
    const other = b[index] as HalfHourSample;
    if (one.start !== other.start || one.kwh !== other.kwh) return false;
  }
  return true;
}
