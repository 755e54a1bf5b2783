import type { CloudHttp } from "../http.js";

// STUB: to be written.
export const emsEndpoints = {} as const;

export class EmsApi {
  constructor(readonly http: CloudHttp) {}
}
