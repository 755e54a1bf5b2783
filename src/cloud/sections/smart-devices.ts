import type { CloudHttp } from "../http.js";

// STUB: to be written.
export const smartDeviceEndpoints = {} as const;

export class SmartDevicesApi {
  constructor(readonly http: CloudHttp) {}
}
