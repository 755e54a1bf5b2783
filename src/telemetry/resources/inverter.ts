import { NotFoundError } from "../../cloud/index.js";
import type { MeterData, SystemData } from "../../cloud/schemas/inverter-data.js";
import { deviceId, type InverterDevice } from "../inventory.js";
import { live, type Resource, type ResourceContext } from "../resource.js";
import { DataPointFeed, meterDataOf, systemDataOf } from "./data-points.js";

/** Statuses that mean the cloud has lost the inverter: its values are the last ones it heard. */
const LOST = /^(lost|offline)$/i;

/**
 * An endpoint that answered 404 once is not asked again: the data points serve instead.
 * The two `latest` endpoints come from the API notes, not the reference, so some inverters
 * (or emulators of the API) may lack them.
 */
class Fallback<T> {
  private missing = false;

  constructor(
    private readonly primary: (signal: AbortSignal) => Promise<T>,
    private readonly secondary: (signal: AbortSignal) => Promise<T | undefined>,
  ) {}

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

/** Live data (system-data/latest) and energy counters (meter-data/latest) of a stand-alone inverter. */
export function inverterResources(
  context: ResourceContext,
  inverter: InverterDevice,
  timezone: string,
  poll: InverterPolls,
): Resource[] {
  const { client, now } = context;
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
  const counters = new Fallback<MeterData>(
    (signal) => client.inverterData.meterDataLatest(serial, live(signal)),
    async (signal) => {
      // The live pipeline keeps the feed fresh when both endpoints are missing: reuse its point.
      const point = await points.newest(signal, poll.live);
      return point && meterDataOf(point);
    },
  );

  return [
    {
      name: `inverter.live ${serial}`,
      devices: [id],
      periodMs: poll.live,
      async poll(signal) {
        const data = await liveData.read(signal);
        if (!data) return { readings: [] };
        const lost = data.status && LOST.test(data.status);
        return {
          readings: [{ kind: "inverter.live", serial, at: now(), data }],
          ...(lost ? { down: { [id]: `the cloud reports inverter ${serial} as ${data.status}` } } : {}),
        };
      },
    },
    {
      name: `inverter.counters ${serial}`,
      devices: [id],
      periodMs: poll.counters,
      async poll(signal) {
        const data = await counters.read(signal);
        return { readings: data ? [{ kind: "inverter.counters", serial, at: now(), data }] : [] };
      },
    },
  ];
}
