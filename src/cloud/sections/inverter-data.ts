import type { CloudHttp } from "../http.js";

// STUB: to be written.
export const inverterDataEndpoints = {} as const;

export class InverterDataApi {
  constructor(readonly http: CloudHttp) {}
}
