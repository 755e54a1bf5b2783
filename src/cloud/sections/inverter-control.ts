import type { CloudHttp } from "../http.js";

// STUB: to be written.
export const inverterControlEndpoints = {} as const;

export class InverterControlApi {
  constructor(readonly http: CloudHttp) {}
}
