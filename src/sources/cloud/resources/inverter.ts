import type { SystemData } from "../../../cloud/index.js";
import { NotFoundError } from "../../../cloud/index.js";
import { deviceId, type InverterDevice } from "../../inventory.js";
import type { Resource } from "../../resource.js";
import { live, type ResourceContext } from "../context.js";
import { inverterPointsOf } from "../history-items.js";
import { counterValuesOf, liveValuesOf, measuredAt } from "../readings.js";
import { DataPointFeed, systemDataOf } from "./data-points.js";

/** Statuses that mean the cloud has lost the inverter: its values are the last ones it heard. */
const LOST = /^(lost|offline)$/i;

/**
 * An endpoint that answered 404 once is not asked again: the data points serve instead.
 * system-data/latest comes from the API notes, not the reference, so some inverters (or
 * emulators of the API) may lack it.
 */
class Fallback<T> {
  private missing = false;

  constructor(
    private readonly primary: (signal: AbortSignal) => Promise<T>,
    private readonly secondary: (signal: AbortSignal) => Promise<T | undefined>,
  ) {}

  get usesFallback(): boolean {
    return this.missing;
  }

  async read(signal: AbortSignal): Promise<T | undefined> {
    if (!this.missing) {
      try {
        return await this.primary(signal);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        this.missing = true;
      }
    }
    return this.secondary(signal);
  }
}

export interface InverterPolls {
  readonly live: number;
  readonly counters: number;
}

/**
 * Live data (system-data/latest) and energy counters of a stand-alone inverter. The counters
 * come from today's new data points, so the one request also brings the history its 5-minute
 * points.
 */
export function inverterResources(context: ResourceContext, inverter: InverterDevice, poll: InverterPolls): Resource[] {
  const { client, now, timezone } = context;
  const { serial } = inverter;
  const id = deviceId(inverter);
  const points = new DataPointFeed(context, serial, timezone);

  const liveData = new Fallback<SystemData>(
    (signal) => client.inverterData.systemDataLatest(serial, live(signal)),
    async (signal) => {
      const point = await points.newest(signal);
      return point && systemDataOf(point);
    },
  );

  return [
    {
      name: `inverter.live ${serial}`,
      of: { kind: "inverter.live", serial },
      devices: [id],
      periodMs: poll.live,
      async poll(signal) {
        const data = await liveData.read(signal);
        if (!data) return {};
        const lost = data.status && LOST.test(data.status);
        const stamped = measuredAt(data.time, timezone);
        return {
          fetched: {
            kind: "inverter.live",
            serial,
            at: now(),
            measuredAt: stamped,
            values: liveValuesOf(data),
            cloudTime: stamped ?? null,
          },
          ...(lost ? { down: { [id]: `the cloud reports inverter ${serial} as ${data.status}` } } : {}),
        };
      },
    },
    {
      name: `inverter.counters ${serial}`,
      of: { kind: "inverter.counters", serial },
      devices: [id],
      periodMs: poll.counters,
      // A page of data points holds an hour: once an hour a poll finds it full and reads the next.
      extraPerHour: 1,
      async poll(signal) {
        // When the live pipeline reads the points too (system-data/latest missing), reuse its fetch.
        const point = await points.newest(signal, liveData.usesFallback ? poll.live : 0);
        const fresh = points.takeNew();
        return {
          fetched: {
            kind: "inverter.points",
            serial,
            at: now(),
            points: inverterPointsOf(fresh, timezone),
            counters: point && counterValuesOf(point),
          },
        };
      },
    },
  ];
}
