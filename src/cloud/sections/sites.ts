import type { CloudHttp } from "../http.js";

// STUB: to be written.
export const siteEndpoints = {} as const;

export class SitesApi {
  constructor(readonly http: CloudHttp) {}
}
