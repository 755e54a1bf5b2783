import type { CloudHttp } from "../http.js";

// STUB: to be written.
export const energyFlowEndpoints = {} as const;

export class EnergyFlowsApi {
  constructor(readonly http: CloudHttp) {}
}
