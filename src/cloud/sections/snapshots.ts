import type { CloudHttp } from "../http.js";

// STUB: to be written.
export const snapshotEndpoints = {} as const;

export class SnapshotsApi {
  constructor(readonly http: CloudHttp) {}
}
