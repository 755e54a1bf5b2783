import type { CloudHttp } from "../http.js";

// STUB: to be written.
export const evChargerEndpoints = {} as const;

export class EvChargersApi {
  constructor(readonly http: CloudHttp) {}
}
