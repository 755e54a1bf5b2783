import { z } from "zod";
import { defineEndpoint } from "../endpoint.js";
import type { CallOptions, CloudHttp } from "../http.js";
import type { PageIterator } from "../pagination.js";
import { data, timestamp } from "../schemas/common.js";
import {
  type InverterDataPoint,
  type InverterFaultEvent,
  inverterDataPoint,
  inverterFaultEvent,
  type MeterData,
  meterData,
  type SystemData,
  systemData,
} from "../schemas/inverter-data.js";
import type { PageOptions } from "./page-options.js";

export const inverterDataEndpoints = {
  events: defineEndpoint({
    name: "Get Inverter Events",
    method: "GET",
    path: "/inverter/{inverter_serial_number}/events",
    // The reference does not show the scope or account type.
    scopes: [],
  }),
  dataPoints: defineEndpoint({
    name: "Get Inverter Data Points",
    method: "GET",
    path: "/inverter/{inverter_serial_number}/data-points/{date}",
    scopes: ["api:inverter:data"],
  }),
  // The next two come from the API notes, which do not give scopes; api:inverter:data is assumed.
  systemDataLatest: defineEndpoint({
    name: "Get Latest System Data",
    method: "GET",
    path: "/inverter/{inverter_serial_number}/system-data/latest",
    scopes: ["api:inverter:data"],
  }),
  meterDataLatest: defineEndpoint({
    name: "Get Latest Meter Data",
    method: "GET",
    path: "/inverter/{inverter_serial_number}/meter-data/latest",
    scopes: ["api:inverter:data"],
  }),
} as const;

export interface EventsFilter {
  /** ISO 8601 datetime. */
  readonly start?: string;
  /** ISO 8601 datetime. */
  readonly end?: string;
  /** Include cleared events too (the service's default is false). */
  readonly cleared?: boolean;
}

const eventsFilter = z.object({
  start: timestamp.optional(),
  end: timestamp.optional(),
  cleared: z.boolean().optional(),
});

/** `YYYY-MM-DD`, in the system's local time. */
const localDate = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, "expected a date as YYYY-MM-DD");

export class InverterDataApi {
  constructor(private readonly http: CloudHttp) {}

  /** Fault events, uncleared only unless `cleared` is true. */
  events(serial: string, filter: EventsFilter = {}, options?: PageOptions): PageIterator<InverterFaultEvent> {
    const query = this.http.validate(inverterDataEndpoints.events, eventsFilter, filter);
    return this.http.paginate(
      inverterDataEndpoints.events,
      {
        params: { inverter_serial_number: serial },
        query: { start: query.start, end: query.end, cleared: query.cleared },
      },
      inverterFaultEvent,
      options,
    );
  }

  /** A day's 5-minute data points (about 288); `date` is `YYYY-MM-DD` in the system's local time. */
  dataPoints(serial: string, date: string, options?: PageOptions): PageIterator<InverterDataPoint> {
    const day = this.http.validate(inverterDataEndpoints.dataPoints, z.object({ date: localDate }), { date });
    return this.http.paginate(
      inverterDataEndpoints.dataPoints,
      { params: { inverter_serial_number: serial, date: day.date } },
      inverterDataPoint,
      options,
    );
  }

  /** Live values: solar, grid, battery, inverter and consumption power. */
  systemDataLatest(serial: string, options?: CallOptions): Promise<SystemData> {
    return this.http.call(
      inverterDataEndpoints.systemDataLatest,
      { params: { inverter_serial_number: serial } },
      data(systemData),
      options,
    );
  }

  /** Today's and lifetime energy counters in kWh. */
  meterDataLatest(serial: string, options?: CallOptions): Promise<MeterData> {
    return this.http.call(
      inverterDataEndpoints.meterDataLatest,
      { params: { inverter_serial_number: serial } },
      data(meterData),
      options,
    );
  }
}
