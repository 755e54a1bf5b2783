import { z } from "zod";
import { defineEndpoint } from "../endpoint.js";
import type { CallOptions, CloudHttp } from "../http.js";
import { data } from "../schemas/common.js";
import {
  ENERGY_FLOW_GROUPINGS,
  ENERGY_FLOW_TYPES,
  type EnergyFlowGrouping,
  type EnergyFlowRecord,
  type EnergyFlowType,
  energyFlowRecord,
} from "../schemas/inverter-data.js";

export const energyFlowEndpoints = {
  flows: defineEndpoint({
    name: "Get Energy Flows",
    method: "POST",
    path: "/inverter/{inverter_serial_number}/energy-flows",
    scopes: ["api:inverter:data"],
    // A POST that only reads.
    idempotent: true,
  }),
} as const;

export interface EnergyFlowsQuery {
  /** Inverter local time: `YYYY-MM-DD hh:mm:ss` or a date `YYYY-MM-DD`. */
  readonly start_time: string;
  readonly end_time: string;
  /** 0 half hourly, 1 daily, 2 monthly, 3 yearly, 4 total: see ENERGY_FLOW_GROUPINGS. */
  readonly grouping: EnergyFlowGrouping;
  /** Flow type IDs 0 to 6 (ENERGY_FLOW_TYPES); empty or left out means all. */
  readonly types?: readonly EnergyFlowType[];
}

const localDateTime = z
  .string()
  .regex(
    /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])( ([01]\d|2[0-3]):[0-5]\d:[0-5]\d)?$/,
    "expected a local datetime as YYYY-MM-DD hh:mm:ss, or a date as YYYY-MM-DD",
  );

const groupingIds = Object.keys(ENERGY_FLOW_GROUPINGS).map(Number);
const typeIds = Object.keys(ENERGY_FLOW_TYPES).map(Number);

const energyFlowsBody = z
  .object({
    start_time: localDateTime,
    end_time: localDateTime,
    grouping: z
      .number()
      .int()
      .refine((id) => groupingIds.includes(id), {
        message: `expected a grouping ID, one of ${groupingIds.join(", ")}`,
      }),
    types: z
      .array(
        z
          .number()
          .int()
          .refine((id) => typeIds.includes(id), { message: `expected a flow type ID, one of ${typeIds.join(", ")}` }),
      )
      .optional(),
  })
  .refine((body) => notBefore(body.end_time, body.start_time), {
    message: "end_time must not be before start_time",
    path: ["end_time"],
  });

/** Compares local datetimes as text; when either is a bare date, only the dates are compared. */
function notBefore(end: string, start: string): boolean {
  if (end.length === start.length) return end >= start;
  return end.slice(0, 10) >= start.slice(0, 10);
}

export class EnergyFlowsApi {
  constructor(private readonly http: CloudHttp) {}

  /**
   * Energy flows (kWh per flow type) per interval. The answer is declared text/plain but is
   * JSON; the transport parses it whatever the content type.
   */
  async flows(serial: string, query: EnergyFlowsQuery, options?: CallOptions): Promise<EnergyFlowRecord[]> {
    const body = this.http.validate(energyFlowEndpoints.flows, energyFlowsBody, query);
    return this.http.call(
      energyFlowEndpoints.flows,
      { params: { inverter_serial_number: serial }, body },
      data(z.array(energyFlowRecord)),
      options,
    );
  }
}
