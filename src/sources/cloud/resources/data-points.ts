import type { InverterDataPoint, Page, SystemData } from "../../../cloud/index.js";
import { dayOf, timestampMs } from "../../../time/index.js";
import { live, type ResourceContext } from "../context.js";
import { firstPage } from "../first-page.js";

/** A page holds an hour of 5-minute points: small answers, and a new page only once an hour. */
const PAGE_SIZE = 12;

/**
 * Today's data points of one inverter, read from the last page seen on, jumping straight to the
 * last page the answer names, so a poll costs one request (two when a page has filled). It
 * serves the energy counters and the history's 5-minute points, and live values when
 * system-data/latest answers 404. Pages skipped by the jump are left to the gap backfill.
 */
export class DataPointFeed {
  private date: string | undefined;
  private page = 1;
  private latest: InverterDataPoint | undefined;
  /** Points newer than any seen before, not yet taken for the history. */
  private unseen: InverterDataPoint[] = [];
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<InverterDataPoint | undefined> | undefined;

  constructor(
    private readonly context: ResourceContext,
    private readonly serial: string,
    private readonly timezone: string,
  ) {}

  /**
   * The newest point, fetched unless the last fetch is younger than `maxAgeMs`. A caller that
   * comes while a fetch is under way shares it rather than walking the pages a second time.
   */
  newest(signal: AbortSignal, maxAgeMs = 0): Promise<InverterDataPoint | undefined> {
    if (this.pending) return this.pending;
    const now = this.context.now();
    if (now - this.fetchedAt < maxAgeMs) return Promise.resolve(this.latest);
    this.pending = this.fetch(now, signal).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** The points fetched since the last call, oldest first: each one is handed out once. */
  takeNew(): InverterDataPoint[] {
    const taken = this.unseen.sort((a, b) => timestampMs(a.time, this.timezone) - timestampMs(b.time, this.timezone));
    this.unseen = [];
    return taken;
  }

  private async fetch(now: number, signal: AbortSignal): Promise<InverterDataPoint | undefined> {
    // The data-points endpoint takes the system's local date.
    const today = dayOf(now, this.timezone);
    if (today !== this.date) {
      this.date = today;
      this.page = 1;
    }
    for (;;) {
      const page = await firstPage(
        this.context.client.inverterData.dataPoints(this.serial, today, {
          ...live(signal),
          pageSize: PAGE_SIZE,
          firstPage: this.page,
        }),
      );
      const seenUntil = this.latest ? timestampMs(this.latest.time, this.timezone) : Number.NEGATIVE_INFINITY;
      for (const point of page.data) {
        if (timestampMs(point.time, this.timezone) > seenUntil) this.unseen.push(point);
        if (!this.latest || timestampMs(point.time, this.timezone) > timestampMs(this.latest.time, this.timezone))
          this.latest = point;
      }
      const next = nextPage(page, this.page);
      if (next === undefined) break;
      this.page = next;
    }
    this.fetchedAt = now;
    return this.latest;
  }
}

/** The last page when the answer names another one; the next one when only links say there is more. */
function nextPage(page: Page<unknown>, current: number): number | undefined {
  const last = page.meta?.last_page;
  if (last !== undefined && last !== null) {
    const target = Math.max(1, last);
    return target !== current ? target : undefined;
  }
  return page.links?.next ? current + 1 : undefined;
}

export function systemDataOf(point: InverterDataPoint): SystemData {
  const power = point.power;
  return {
    time: point.time,
    status: point.status,
    solar: power?.solar,
    grid: power?.grid,
    battery: power?.battery,
    inverter: power?.inverter,
    consumption: power?.consumption?.power,
  };
}
