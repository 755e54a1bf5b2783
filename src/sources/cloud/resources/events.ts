import type { Observable } from "rxjs";
import type { InverterFaultEvent } from "../../../cloud/index.js";
import { isoSeconds, newest, timestampMs } from "../../../time/index.js";
import type { DeviceId } from "../../../vocabulary/device-id.js";
import type { Resource } from "../../resource.js";
import { live, type ResourceContext } from "../context.js";
import { inverterFaultOf } from "../history-items.js";

const keyOf = (event: InverterFaultEvent): string => `${event.event}|${event.start_time}`;

const newestFirst =
  (timeZone: string) =>
  (a: InverterFaultEvent, b: InverterFaultEvent): number =>
    timestampMs(b.start_time, timeZone) - timestampMs(a.start_time, timeZone);

/**
 * Uncleared fault events of one inverter. `latest` is the newest of those, or the newest one
 * that cleared since: when a fault drops out of the uncleared list, one extra request (cleared
 * events since it started) learns when it ended.
 */
export function eventsResource(
  context: ResourceContext,
  serial: string,
  device: DeviceId,
  schedule: { readonly periodMs?: number; readonly triggers?: Observable<unknown> },
): Resource {
  const { client, now } = context;
  let active: InverterFaultEvent[] | undefined;
  let cleared: InverterFaultEvent | undefined;

  async function clearedSince(gone: InverterFaultEvent, signal: AbortSignal): Promise<InverterFaultEvent | undefined> {
    const start = timestampMs(gone.start_time, context.timezone);
    if (Number.isNaN(start)) return undefined;
    const events = await client.inverterData
      .events(serial, { start: isoSeconds(start), cleared: true }, live(signal))
      .all();
    return events.find((event) => keyOf(event) === keyOf(gone) && event.end_time);
  }

  return {
    name: `inverter.events ${serial}`,
    of: { kind: "inverter.events", serial },
    devices: [device],
    ...schedule,
    async poll(signal) {
      const current = (await client.inverterData.events(serial, { cleared: false }, live(signal)).all())
        .filter((event) => !event.end_time)
        .sort(newestFirst(context.timezone));
      const keys = new Set(current.map(keyOf));
      const gone = newest(
        (active ?? []).filter((event) => !keys.has(keyOf(event))),
        (event) => event.start_time,
        context.timezone,
      );
      const ended = gone ? await clearedSince(gone, signal) : undefined;
      if (ended)
        cleared = newest([ended, ...(cleared ? [cleared] : [])], (event) => event.start_time, context.timezone);
      active = current;
      const latest = newest([...current, ...(cleared ? [cleared] : [])], (event) => event.start_time, context.timezone);
      const fault = (event: InverterFaultEvent) => inverterFaultOf(event, context.timezone);
      return {
        fetched: {
          kind: "inverter.events",
          serial,
          at: now(),
          active: current.map(fault),
          ended: ended && fault(ended),
          latest: latest && fault(latest),
        },
      };
    },
  };
}
