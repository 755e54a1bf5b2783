import type { InverterDataPoint, InverterFaultEvent, SmartDeviceDataPoint } from "../../cloud/index.js";
import { timestampMs, zonedTimestamp } from "../../time/index.js";
import type { InverterFault, InverterPoint, SmartDeviceReading } from "../../vocabulary/index.js";

/*
 * The cloud's inverter and smart device records in the daemon's words (src/vocabulary/): their
 * times, which the cloud writes in UTC or in the account's local time, read in its zone.
 */

const readable = (ms: number): number | undefined => (Number.isFinite(ms) ? ms : undefined);

/**
 * Data points as the history keeps them: the history's point is the cloud's without its time,
 * which the row holds. A point whose time cannot be read has no place in it and is dropped.
 */
export function inverterPointsOf(points: readonly InverterDataPoint[], timeZone: string): InverterPoint[] {
  return points.flatMap(({ time, ...data }) => {
    const measuredAt = readable(timestampMs(time, timeZone));
    return measuredAt === undefined ? [] : [{ measuredAt, data }];
  });
}

export function inverterFaultOf(event: InverterFaultEvent, timeZone: string): InverterFault {
  return {
    name: event.event,
    startedAt: zonedTimestamp(event.start_time),
    startMs: readable(timestampMs(event.start_time, timeZone)),
    written: { start: event.start_time, end: event.end_time ?? null },
  };
}

export function smartDeviceReadingOf(point: SmartDeviceDataPoint, timeZone: string): SmartDeviceReading {
  return { power: point.power, measuredAt: readable(timestampMs(point.time, timeZone)) };
}
