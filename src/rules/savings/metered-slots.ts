import { z } from "zod";
import type { History } from "../../store/index.js";
import { SLOT_MS } from "../../time/index.js";

/*
 * What the house metered each half-hour, from the inverter's stored data points (kind
 * inverter.point): the lifetime counters' increases between consecutive points of one inverter.
 * The increase between two points belongs to the half-hour holding the later one's instant less
 * a millisecond, so 5-minute points and half-hourly downsampled rows (each at its half-hour's last
 * point) both land in the right half-hour. Points further apart than a half-hour, and counters
 * that went down, are holes: their energy is left out, never guessed. Each inverter's half-hours are
 * kept apart (readMeteredInverters), so an inverter or a plant has its own metered half-hours
 * beside the house's (every inverter's summed).
 */

const kwh = z.number().finite().nullish();
const storedPoint = z.object({
  status: z.string().nullish(),
  power: z.object({ battery: z.object({ percent: z.number().finite().nullish() }).nullish() }).nullish(),
  total: z
    .object({
      solar: kwh,
      consumption: kwh,
      grid: z.object({ import: kwh, export: kwh }).nullish(),
    })
    .nullish(),
});

const UNREADABLE = new Set(["LOST", "ERROR"]);

/** One half-hour's metered energy, kWh, summed over the inverters. */
export interface MeteredSlot {
  readonly start: number;
  readonly importKwh: number;
  readonly exportKwh: number;
  readonly loadKwh: number;
  readonly solarKwh: number;
}

export interface MeteredHouse {
  /** Half-hours with a counter increase, in time order. */
  readonly slots: MeteredSlot[];
  /** Battery SoC (%) readings, in time order (the first inverter's that has one at that instant). */
  readonly soc: { readonly at: number; readonly percent: number }[];
}

interface Counters {
  readonly at: number;
  readonly import: number;
  readonly export: number;
  readonly load: number;
  readonly solar: number;
}

type Energy = { importKwh: number; exportKwh: number; loadKwh: number; solarKwh: number };

/** Adds a half-hour's energy to what `slots` holds for its start. */
function addInto(slots: Map<number, Energy>, start: number, rise: Energy): void {
  const slot = slots.get(start) ?? { importKwh: 0, exportKwh: 0, loadKwh: 0, solarKwh: 0 };
  slot.importKwh += rise.importKwh;
  slot.exportKwh += rise.exportKwh;
  slot.loadKwh += rise.loadKwh;
  slot.solarKwh += rise.solarKwh;
  slots.set(start, slot);
}

/** Each inverter's metered half-hours, and the house's SoC readings. */
export interface MeteredInverters {
  /** By inverter serial: its half-hours with a counter increase, by slot start. */
  readonly inverters: ReadonlyMap<string, ReadonlyMap<number, Energy>>;
  readonly soc: MeteredHouse["soc"];
}

/** The house's metered half-hours between from and to (epoch ms, to exclusive). */
export function readMeteredHouse(history: Pick<History, "query">, from: number, to: number): MeteredHouse {
  return meteredGroup(readMeteredInverters(history, from, to));
}

/**
 * Some inverters' half-hours summed (all of them, the house, without `members`). A group that is
 * not the whole house gets no SoC readings: the eco-only baseline runs the rules' one battery,
 * the house's, so it has none of its own.
 */
export function meteredGroup(metered: MeteredInverters, members?: readonly string[]): MeteredHouse {
  const slots = new Map<number, Energy>();
  const serials = members ?? [...metered.inverters.keys()];
  for (const serial of serials)
    for (const [start, rise] of metered.inverters.get(serial) ?? []) addInto(slots, start, rise);
  const whole = members === undefined || [...metered.inverters.keys()].every((serial) => members.includes(serial));
  return {
    slots: [...slots.entries()].sort((a, b) => a[0] - b[0]).map(([start, slot]) => ({ start, ...slot })),
    soc: whole ? metered.soc : [],
  };
}

/** Each inverter's metered half-hours between from and to (epoch ms, to exclusive). */
export function readMeteredInverters(history: Pick<History, "query">, from: number, to: number): MeteredInverters {
  const previous = new Map<string, Counters>();
  const inverters = new Map<string, Map<number, Energy>>();
  const soc = new Map<number, number>();
  // One point before `from` gives the first half-hour its starting counters.
  for (const record of history.query({ kind: "inverter.point", from: from - SLOT_MS, to: to + SLOT_MS })) {
    const point = storedPoint.safeParse(record.data);
    if (!point.success || UNREADABLE.has(point.data.status ?? "")) continue;
    const percent = point.data.power?.battery?.percent;
    if (typeof percent === "number" && record.at >= from && record.at < to && !soc.has(record.at))
      soc.set(record.at, percent);
    const total = point.data.total;
    const counters = {
      at: record.at,
      import: total?.grid?.import,
      export: total?.grid?.export,
      load: total?.consumption,
      solar: total?.solar,
    };
    if (
      typeof counters.import !== "number" ||
      typeof counters.export !== "number" ||
      typeof counters.load !== "number" ||
      typeof counters.solar !== "number"
    )
      continue;
    const now: Counters = {
      at: record.at,
      import: counters.import,
      export: counters.export,
      load: counters.load,
      solar: counters.solar,
    };
    const before = previous.get(record.device);
    previous.set(record.device, now);
    if (!before || now.at - before.at > SLOT_MS) continue;
    const start = Math.floor((now.at - 1) / SLOT_MS) * SLOT_MS;
    if (start < from || start >= to) continue;
    const rise = {
      importKwh: now.import - before.import,
      exportKwh: now.export - before.export,
      loadKwh: now.load - before.load,
      solarKwh: now.solar - before.solar,
    };
    if (Object.values(rise).some((value) => value < 0)) continue;
    const slots = inverters.get(record.device) ?? new Map<number, Energy>();
    addInto(slots, start, rise);
    inverters.set(record.device, slots);
  }
  return {
    inverters,
    soc: [...soc.entries()].sort((a, b) => a[0] - b[0]).map(([at, percent]) => ({ at, percent })),
  };
}
