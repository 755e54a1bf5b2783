import { defineEndpoint } from "../endpoint.js";
import type { CallOptions, CloudHttp } from "../http.js";
import type { PageIterator } from "../pagination.js";
import { data } from "../schemas/common.js";
import { type Site, site } from "../schemas/site.js";
import type { PageOptions } from "./page-options.js";

export const siteEndpoints = {
  list: defineEndpoint({ name: "Get Sites", method: "GET", path: "/site", scopes: ["api:site:list"] }),
  get: defineEndpoint({ name: "Get Site", method: "GET", path: "/site/{site_plant_id}", scopes: ["api:site:read"] }),
} as const;

export class SitesApi {
  constructor(private readonly http: CloudHttp) {}

  list(options?: PageOptions): PageIterator<Site> {
    return this.http.paginate(siteEndpoints.list, {}, site, options);
  }

  get(siteId: number, options?: CallOptions): Promise<Site> {
    return this.http.call(siteEndpoints.get, { params: { site_plant_id: siteId } }, data(site), options);
  }
}
