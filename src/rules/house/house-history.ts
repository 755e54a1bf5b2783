import { z } from "zod";
import type { HalfHourSample } from "../../optimiser/index.js";
import type { History } from "../../store/index.js";
import { SLOT_MS, wallClock } from "../../time/index.js";

/*
 * What the forecasts learn from: the inverter's 5-minute data points the daemon keeps in the
 * store's history (kind inverter.point, downsampled to one per half-hour when old), turned into
 * kWh per half-hour of home consumption and solar. A half-hour's energy is the mean of its
 * points' power times half an hour; half-hours without a reading are left out, not taken as 0.
 */

/** The part of a stored point the forecasts read (power in W); the rest is ignored. */
const watts = z.number().finite().nullish();
const pointPower = z.object({
  status: z.string().nullish(),
  power: z
    .object({
      solar: z.object({ power: watts }).nullish(),
      consumption: z.object({ power: watts }).nullish(),
    })
    .nullish(),
});

/** Statuses whose values are not readings (the cloud's lost or failed points). */
const UNREADABLE = new Set(["LOST", "ERROR"]);

export interface HouseHistory {
  /** Home consumption, kWh per half-hour, in time order. */
  readonly load: HalfHourSample[];
  /** Solar generation, kWh per half-hour, in time order. */
  readonly solar: HalfHourSample[];
  /** Local days holding at least one half-hour of either. */
  readonly days: number;
}

export interface HouseHistoryQuery {
  readonly from: number;
  readonly to: number;
  readonly timeZone: string;
  /** The inverter's serial; left out, every inverter's points (summed per half-hour). */
  readonly device?: string;
}

interface Slot {
  loadSum: number;
  loadCount: number;
  solarSum: number;
  solarCount: number;
}

/** The house's half-hourly consumption and solar from the stored history between from and to. */
export function readHouseHistory(history: Pick<History, "query">, query: HouseHistoryQuery): HouseHistory {
  // Per device and half-hour: several inverters add up, each one's points average.
  const slots = new Map<string, Map<number, Slot>>();
  for (const record of history.query({
    kind: "inverter.point",
    from: query.from,
    to: query.to,
    ...(query.device === undefined ? {} : { device: query.device }),
  })) {
    const point = pointPower.safeParse(record.data);
    if (!point.success || UNREADABLE.has(point.data.status ?? "")) continue;
    const start = Math.floor(record.at / SLOT_MS) * SLOT_MS;
    let device = slots.get(record.device);
    if (!device) {
      device = new Map();
      slots.set(record.device, device);
    }
    let slot = device.get(start);
    if (!slot) {
      slot = { loadSum: 0, loadCount: 0, solarSum: 0, solarCount: 0 };
      device.set(start, slot);
    }
    const consumption = point.data.power?.consumption?.power;
    const solar = point.data.power?.solar?.power;
    if (typeof consumption === "number") {
      slot.loadSum += Math.max(0, consumption);
      slot.loadCount++;
    }
    if (typeof solar === "number") {
      slot.solarSum += Math.max(0, solar);
      slot.solarCount++;
    }
  }
  const load = new Map<number, number>();
  const solar = new Map<number, number>();
  const toKwh = (sum: number, count: number): number => ((sum / count) * (SLOT_MS / 3_600_000)) / 1000;
  for (const device of slots.values()) {
    for (const [start, slot] of device) {
      if (slot.loadCount > 0) load.set(start, (load.get(start) ?? 0) + toKwh(slot.loadSum, slot.loadCount));
      if (slot.solarCount > 0) solar.set(start, (solar.get(start) ?? 0) + toKwh(slot.solarSum, slot.solarCount));
    }
  }
  return {
    load: samples(load),
    solar: samples(solar),
    days: localDays([...load.keys(), ...solar.keys()], query.timeZone),
  };
}

/** How many local days the half-hours starting at `starts` touch. */
export function localDays(starts: Iterable<number>, timeZone: string): number {
  const days = new Set<string>();
  for (const start of starts) {
    const wall = wallClock(start, timeZone);
    days.add(`${wall.year}-${wall.month}-${wall.day}`);
  }
  return days.size;
}

function samples(series: ReadonlyMap<number, number>): HalfHourSample[] {
  return [...series.entries()].sort((a, b) => a[0] - b[0]).map(([start, kwh]) => ({ start, kwh }));
}
