import type { CloudHttp } from "../http.js";

// STUB: to be written.
export const communicationDeviceEndpoints = {} as const;

export class CommunicationDevicesApi {
  constructor(readonly http: CloudHttp) {}
}
