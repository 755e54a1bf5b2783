import type { DataPointBody, EnergyFlowBody, FaultEventBody, MeterDataBody, SystemDataBody } from "../house/bodies.js";
import type { EnergyFlowQuery, EventQuery, InverterStatus } from "../house/index.js";

export type { DataPointBody, EnergyFlowBody, FaultEventBody, MeterDataBody, SystemDataBody };

/**
 * What the `/inverter/{serial}/...` data endpoints read: a simulated inverter's house, or a plant
 * (an EMS or a gateway) that the real service serves through the same endpoints.
 */
export interface InverterData {
  advanceTo(ms: number): void;
  status(): InverterStatus;
  /** An admin switch: offline, the cloud hears nothing and shows the last values it had. */
  setOffline(offline: boolean): void;
  systemDataLatest(): SystemDataBody;
  meterDataLatest(): MeterDataBody;
  dataPoints(date: string): DataPointBody[];
  events(query: EventQuery): FaultEventBody[];
  energyFlows(query: EnergyFlowQuery): EnergyFlowBody[];
}
