import { defineEndpoint } from "../endpoint.js";
import type { CallOptions, CloudHttp } from "../http.js";
import type { PageIterator } from "../pagination.js";
import { data } from "../schemas/common.js";
import { type CommunicationDevice, communicationDevice } from "../schemas/communication-device.js";
import type { PageOptions } from "./page-options.js";

export const communicationDeviceEndpoints = {
  list: defineEndpoint({
    name: "Get Communication Devices",
    method: "GET",
    path: "/communication-device",
    scopes: ["api:inverter:list"],
  }),
  get: defineEndpoint({
    name: "Get Communication Device",
    method: "GET",
    path: "/communication-device/{communicationDevice_serial_number}",
    scopes: ["api:inverter:read"],
  }),
} as const;

export class CommunicationDevicesApi {
  constructor(private readonly http: CloudHttp) {}

  /** Every dongle the token can see, each with its inverter, batteries and meters. */
  list(options?: PageOptions): PageIterator<CommunicationDevice> {
    return this.http.paginate(communicationDeviceEndpoints.list, {}, communicationDevice, options);
  }

  get(serialNumber: string, options?: CallOptions): Promise<CommunicationDevice> {
    return this.http.call(
      communicationDeviceEndpoints.get,
      { params: { communicationDevice_serial_number: serialNumber } },
      data(communicationDevice),
      options,
    );
  }
}
