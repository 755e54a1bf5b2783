import { defineEndpoint } from "../endpoint.js";
import type { CallOptions, CloudHttp } from "../http.js";
import { data } from "../schemas/common.js";
import { type EmsSystemData, emsSystemData } from "../schemas/ems.js";

export const emsEndpoints = {
  systemDataLatest: defineEndpoint({
    name: "Get Latest EMS Data",
    method: "GET",
    path: "/ems/{inverter_serial_number}/system-data/latest",
    scopes: ["api:inverter:read"],
  }),
} as const;

export class EmsApi {
  constructor(private readonly http: CloudHttp) {}

  /** The latest reading of an energy management system; the path takes the EMS's own serial. */
  systemDataLatest(emsSerial: string, options?: CallOptions): Promise<EmsSystemData> {
    return this.http.call(
      emsEndpoints.systemDataLatest,
      { params: { inverter_serial_number: emsSerial } },
      data(emsSystemData),
      options,
    );
  }
}
