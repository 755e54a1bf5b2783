import type { CallOptions } from "../http.js";

export interface PageOptions extends CallOptions {
  /** Items per page; the client's default when left out. */
  readonly pageSize?: number;
  readonly firstPage?: number;
}
