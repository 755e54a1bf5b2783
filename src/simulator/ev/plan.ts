import { hash01 } from "../random.js";

export const MINUTE_MS = 60_000;
export const FIVE_MINUTES_MS = 5 * MINUTE_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** One evening-to-morning stay of the car at home; times are whole minutes, epoch ms. */
export interface Visit {
  /** UTC day of the arrival, days since the epoch. */
  day: number;
  arriveMs: number;
  departMs: number;
  /** Battery percent used per day of driving since the previous stay. */
  usePerDay: number;
  /** When the householder taps their tag, or null on evenings they do not. */
  tapMs: number | null;
}

export interface FaultWindow {
  startMs: number;
  endMs: number;
}

const HOME_SHARE = 0.85;
const TAP_SHARE = 0.8;
const FAULT_SHARE = 0.01;
const LOWEST_ARRIVAL_SOC = 8;

export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** 0 Monday to 6 Sunday, as the charger's schedules count days. */
export function weekdayOf(ms: number): number {
  return (new Date(ms).getUTCDay() + 6) % 7;
}

/**
 * The car's seeded routine, in UTC like the charger's clock: home most evenings (16:30 to
 * 20:30), away again next morning (06:00 to 09:00, 09:00 to 13:00 at weekends). Stays never
 * overlap, and a rare fault window sits in the afternoon, when the car is away.
 */
export class CarPlan {
  private readonly visits = new Map<number, Visit | null>();

  constructor(private readonly seed: number) {}

  visitOn(day: number): Visit | undefined {
    let visit = this.visits.get(day);
    if (visit === undefined) {
      visit = this.draw(day);
      this.visits.set(day, visit);
    }
    return visit ?? undefined;
  }

  faultOn(day: number): FaultWindow | undefined {
    if (hash01(this.seed, "fault", day) >= FAULT_SHARE) return undefined;
    const startMs = day * DAY_MS + 13.5 * HOUR_MS + Math.floor(hash01(this.seed, "fault-start", day) * 120) * MINUTE_MS;
    return { startMs, endMs: startMs + (10 + Math.floor(hash01(this.seed, "fault-length", day) * 20)) * MINUTE_MS };
  }

  private draw(day: number): Visit | null {
    const s = this.seed;
    if (hash01(s, "home", day) >= HOME_SHARE) return null;
    const arriveMs = day * DAY_MS + 16.5 * HOUR_MS + Math.floor(hash01(s, "arrive", day) * 240) * MINUTE_MS;
    const nextDay = (day + 1) * DAY_MS;
    const weekend = weekdayOf(nextDay) >= 5;
    const departMs =
      nextDay + (weekend ? 9 : 6) * HOUR_MS + Math.floor(hash01(s, "depart", day) * (weekend ? 240 : 180)) * MINUTE_MS;
    const tapMs =
      hash01(s, "tap", day) < TAP_SHARE
        ? arriveMs + (1 + Math.floor(hash01(s, "tap-delay", day) * 10)) * MINUTE_MS
        : null;
    return { day, arriveMs, departMs, usePerDay: 5 + 20 * hash01(s, "use", day), tapMs };
  }
}

/** The car's state of charge when it comes home, having driven since it last left. */
export function arrivalSoc(departureSoc: number, visit: Visit, previousVisitDay: number | null): number {
  const daysAway = previousVisitDay === null ? 1 : Math.max(1, visit.day - previousVisitDay);
  return Math.max(LOWEST_ARRIVAL_SOC, departureSoc - visit.usePerDay * daysAway);
}

/** Before the first recorded stay. */
export const INITIAL_CAR_SOC = 50;
