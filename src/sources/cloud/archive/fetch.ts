import type { CallOptions, PageIterator } from "../../../cloud/index.js";
import { MEASURANDS, type Measurand } from "../../../cloud/index.js";
import type { FetchedDay, HistoryRecord } from "../../../store/index.js";
import { addDays, dayEndMs, dayStartMs, isoSeconds } from "../../../time/index.js";
import {
  eventRecords,
  flowRecords,
  meterRecords,
  pointRecords,
  sessionRecords,
  smartRecords,
} from "../history-records.js";
import type { HistorySource } from "../ports.js";
import type { Task } from "./plan.js";

/**
 * Page size for the archive's paginated reads: the largest the configuration allows
 * (cloud.page_size), so a day of 5-minute points (288) is one request.
 */
export const ARCHIVE_PAGE_SIZE = 5000;

const ALL_MEASURANDS = Object.keys(MEASURANDS).map(Number) as Measurand[];

export interface FetchContext {
  readonly source: HistorySource;
  readonly timezone: string;
  readonly now: () => number;
  readonly call: CallOptions;
  /** Called once per HTTP request made (page), for progress. */
  readonly onRequest: () => void;
}

export interface Fetched {
  readonly days: FetchedDay[];
  readonly records: HistoryRecord[];
}

/** Reads one task's answer from the cloud as history rows, with the days it covers. */
export async function fetchTask(task: Task, ctx: FetchContext): Promise<Fetched> {
  const startedAt = ctx.now();
  const { source, timezone: tz } = ctx;
  const first = task.days[0] ?? "";
  const last = task.days[task.days.length - 1] ?? first;
  const startMs = dayStartMs(first, tz);
  const endMs = Math.min(dayEndMs(last, tz), startedAt);
  const pages = { ...ctx.call, pageSize: ARCHIVE_PAGE_SIZE };
  let records: HistoryRecord[];
  let openFrom: number | undefined;
  switch (task.kind) {
    case "inverter.point":
      records = pointRecords(
        task.device,
        await walk(source.inverterData.dataPoints(task.device, first, pages), ctx),
        tz,
      );
      break;
    case "flow.half_hour":
    case "flow.day": {
      const flows = await source.energyFlows.flows(
        task.device,
        {
          start_time: `${first} 00:00:00`,
          end_time: `${addDays(last, 1)} 00:00:00`,
          grouping: task.kind === "flow.day" ? 1 : 0,
        },
        ctx.call,
      );
      ctx.onRequest();
      records = flowRecords(task.kind, task.device, flows, tz);
      break;
    }
    case "inverter.event": {
      const events = await walk(
        source.inverterData.events(
          task.device,
          { start: isoSeconds(startMs), end: isoSeconds(endMs), cleared: true },
          pages,
        ),
        ctx,
      );
      records = eventRecords(task.device, events, tz);
      openFrom = earliest(records.filter((r) => r.data.end_time === null));
      break;
    }
    case "ev.session": {
      const sessions = await walk(
        source.evChargers.chargingSessions(
          task.device,
          { start_time: isoSeconds(startMs), end_time: isoSeconds(endMs) },
          pages,
        ),
        ctx,
      );
      records = sessionRecords(task.device, sessions, tz);
      openFrom = earliest(records.filter((r) => r.data.stopped_at === null || r.data.stopped_at === undefined));
      break;
    }
    case "ev.meter": {
      const query = {
        start_time: isoSeconds(startMs),
        end_time: isoSeconds(endMs),
        measurands: ALL_MEASURANDS,
        meter_ids: [0],
      };
      records = meterRecords(task.device, await walk(source.evChargers.meterData(task.device, query, pages), ctx), tz);
      break;
    }
    case "smart.data":
      records = await smartData(task, ctx, startMs, dayEndMs(last, tz));
      break;
  }
  // A day is complete once it had ended when it was read, and holds nothing still open
  // (an uncleared fault, an unfinished session) that will change.
  const days = task.days.map((day): FetchedDay => {
    const end = dayEndMs(day, tz);
    return {
      kind: task.kind,
      device: task.device,
      day,
      complete: end <= startedAt && (openFrom === undefined || end <= openFrom),
    };
  });
  return { days, records };
}

async function walk<T>(pages: PageIterator<T>, ctx: FetchContext): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) {
    ctx.onRequest();
    out.push(...page.data);
  }
  return out;
}

/**
 * Smart device data has no date filter and comes newest first: pages are read until one
 * reaches back before the first day wanted.
 */
async function smartData(task: Task, ctx: FetchContext, startMs: number, endMs: number): Promise<HistoryRecord[]> {
  const out: HistoryRecord[] = [];
  const pages = ctx.source.smartDevices.data(task.device, { ...ctx.call, pageSize: ARCHIVE_PAGE_SIZE });
  for await (const page of pages) {
    ctx.onRequest();
    const records = smartRecords(task.device, page.data, ctx.timezone);
    out.push(...records.filter((record) => record.at >= startMs && record.at < endMs));
    if (records.some((record) => record.at < startMs)) break;
  }
  return out;
}

function earliest(records: readonly HistoryRecord[]): number | undefined {
  return records.length === 0 ? undefined : Math.min(...records.map((record) => record.at));
}
