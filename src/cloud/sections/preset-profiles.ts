import type { CloudHttp } from "../http.js";

// STUB: to be written.
export const presetProfileEndpoints = {} as const;

export class PresetProfilesApi {
  constructor(readonly http: CloudHttp) {}
}
