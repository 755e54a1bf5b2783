import type { History } from "../../../store/index.js";
import { addDays, dayOf, daysBetween } from "../../../time/index.js";
import { ARCHIVE_KINDS, type ArchiveKind, targetOf } from "./kinds.js";
import type { ArchiveDevice, ArchiveTargets } from "./targets.js";

/** One unit of work: usually one request, committed in one transaction. */
export interface Task {
  readonly kind: ArchiveKind;
  readonly device: string;
  /** Local days it reads, in order. */
  readonly days: readonly string[];
}

export interface PlanOptions {
  /** First local day to copy (YYYY-MM-DD); by default each device's commission day. */
  readonly from?: string;
  /** Last local day to copy, included; by default today. */
  readonly to?: string;
  readonly kinds?: readonly ArchiveKind[];
  readonly now: number;
}

/** Without a commission date or --from, a device is read this far back. */
export const DEFAULT_LOOKBACK_DAYS = 365;

/**
 * Days per request for the kinds read over a span. The reference sets no limit on these spans;
 * half-hourly flows for a week are 336 records, and a month of daily flows, events or sessions
 * is small.
 */
const SPAN_DAYS: Readonly<Record<ArchiveKind, number>> = {
  "inverter.point": 1,
  "ev.meter": 1,
  "flow.half_hour": 7,
  "flow.day": 31,
  "inverter.event": 31,
  "ev.session": 31,
  "smart.data": Number.POSITIVE_INFINITY,
};

/**
 * The requests needed to copy every day not yet complete, per kind and device. Today is always
 * planned (it is never complete); days already complete in the store are skipped.
 */
export function planArchive(targets: ArchiveTargets, history: History, options: PlanOptions): Task[] {
  const today = dayOf(options.now, targets.timezone);
  const last = options.to !== undefined && options.to < today ? options.to : today;
  const tasks: Task[] = [];
  for (const kind of options.kinds ?? ARCHIVE_KINDS) {
    for (const device of devicesFor(targets, kind)) {
      const first = firstDay(device, options.from, today);
      if (first > last) continue;
      const complete = history.completeDays(kind, device.id);
      const wanted = daysBetween(first, last).filter((day) => !complete.has(day));
      for (const days of spans(wanted, SPAN_DAYS[kind])) tasks.push({ kind, device: device.id, days });
    }
  }
  return tasks;
}

function devicesFor(targets: ArchiveTargets, kind: ArchiveKind): readonly ArchiveDevice[] {
  const target = targetOf(kind);
  if (target === "ev_charger") return targets.evChargers;
  if (target === "smart_device") return targets.smartDevices;
  return targets.inverters;
}

function firstDay(device: ArchiveDevice, from: string | undefined, today: string): string {
  const since = device.since;
  if (from !== undefined) return since !== undefined && since > from ? since : from;
  return since ?? addDays(today, 1 - DEFAULT_LOOKBACK_DAYS);
}

/** Runs of consecutive days, each cut to at most `size` days. */
function spans(days: readonly string[], size: number): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  for (const day of days) {
    const previous = current[current.length - 1];
    if (current.length >= size || (previous !== undefined && addDays(previous, 1) !== day)) {
      out.push(current);
      current = [];
    }
    current.push(day);
  }
  if (current.length > 0) out.push(current);
  return out;
}
