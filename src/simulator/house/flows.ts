import { dateOfDayNumber, dayNumber, dayOf, formatLocal, localDateTimeToMs, utcMsOfLocal } from "../../time/index.js";
import type { EnergyFlowBody } from "./bodies.js";
import { FLOW_COUNT } from "./dispatch.js";

const HALF_HOUR_MS = 1_800_000;

export interface EnergyFlowQuery {
  /** Local `YYYY-MM-DD hh:mm:ss` or `YYYY-MM-DD`. */
  readonly start: string;
  readonly end: string;
  readonly grouping: 0 | 1 | 2 | 3 | 4;
  /** Type IDs 0..6; empty or left out means all. */
  readonly types?: readonly number[];
}

/** Adds the flows (Wh) of [fromMs, toMs) into `out`. */
export type RangeSum = (fromMs: number, toMs: number, out: Float64Array) => void;

const dayStart = (day: number, timeZone: string): number => utcMsOfLocal(dateOfDayNumber(day), "00:00", timeZone);

function monthStart(year: number, month: number, timeZone: string): number {
  const normalized = new Date(Date.UTC(year, month - 1, 1));
  const date = `${normalized.getUTCFullYear()}-${String(normalized.getUTCMonth() + 1).padStart(2, "0")}-01`;
  return utcMsOfLocal(date, "00:00", timeZone);
}

/** The grouping's natural intervals [start, end) that meet [fromMs, toMs). */
function* buckets(grouping: number, fromMs: number, toMs: number, timeZone: string): Generator<[number, number]> {
  const first = dayOf(fromMs, timeZone);
  const year = Number(first.slice(0, 4));
  const month = Number(first.slice(5, 7));
  if (grouping === 2 || grouping === 3) {
    const step = grouping === 2 ? 1 : 12;
    let index = grouping === 2 ? month : 1;
    let start = monthStart(year, index, timeZone);
    while (start < toMs) {
      const end = monthStart(year, index + step, timeZone);
      if (end > fromMs) yield [start, end];
      index += step;
      start = end;
    }
    return;
  }
  for (let day = dayNumber(first); ; day++) {
    const start = dayStart(day, timeZone);
    if (start >= toMs) return;
    const end = dayStart(day + 1, timeZone);
    if (grouping === 1) {
      yield [start, end];
      continue;
    }
    for (let slot = start; slot < end && slot < toMs; slot += HALF_HOUR_MS) {
      const slotEnd = Math.min(slot + HALF_HOUR_MS, end);
      if (slotEnd > fromMs) yield [slot, slotEnd];
    }
  }
}

const roundKwh = (wh: number): number => Math.round(wh / 10) / 100;

/**
 * Energy-flow records over [start, end) in the grouping's intervals, each labelled with its
 * interval clipped to the query and holding the flows of the part inside [existsFrom, existsTo).
 */
export function energyFlowRecords(
  query: EnergyFlowQuery,
  timeZone: string,
  existsFrom: number,
  existsTo: number,
  sum: RangeSum,
): EnergyFlowBody[] {
  const startMs = localDateTimeToMs(query.start, timeZone);
  const endMs = localDateTimeToMs(query.end, timeZone);
  const from = Math.max(startMs, existsFrom);
  const to = Math.min(endMs, existsTo);
  if (from >= to) return [];
  const wanted = query.types && query.types.length > 0 ? query.types : [0, 1, 2, 3, 4, 5, 6];
  const types = [...new Set(wanted)].filter((type) => Number.isInteger(type) && type >= 0 && type < FLOW_COUNT);
  types.sort((a, b) => a - b);

  const intervals: Iterable<[number, number]> =
    query.grouping === 4 ? [[startMs, endMs]] : buckets(query.grouping, from, to, timeZone);
  const records: EnergyFlowBody[] = [];
  const totals = new Float64Array(FLOW_COUNT);
  for (const [bucketStart, bucketEnd] of intervals) {
    totals.fill(0);
    sum(Math.max(bucketStart, from), Math.min(bucketEnd, to), totals);
    const data: Record<string, number> = {};
    for (const type of types) data[String(type)] = roundKwh(totals[type] ?? 0);
    records.push({
      start_time: formatLocal(Math.max(bucketStart, startMs), timeZone),
      end_time: formatLocal(Math.min(bucketEnd, endMs), timeZone),
      data,
    });
  }
  return records;
}
