import type { EmsSystemData } from "../cloud/schemas/ems.js";
import type { ChargerMeterRecord, ChargingSession } from "../cloud/schemas/ev-charger.js";
import type { InverterDataPoint, InverterFaultEvent, SystemData } from "../cloud/schemas/inverter-data.js";
import type { SmartDeviceDataPoint } from "../cloud/schemas/smart-device.js";

/**
 * What one poll fetched from the cloud, as the cloud said it: the history feature turns it into
 * rows. Telemetry knows nothing of the store; the same answer feeds the state and the history.
 */
export type Fetched =
  | { readonly kind: "inverter.live"; readonly serial: string; readonly data: SystemData }
  | { readonly kind: "inverter.points"; readonly serial: string; readonly points: readonly InverterDataPoint[] }
  | { readonly kind: "inverter.events"; readonly serial: string; readonly events: readonly InverterFaultEvent[] }
  | { readonly kind: "ems"; readonly serial: string; readonly data: EmsSystemData }
  | { readonly kind: "ev.meter"; readonly uuid: string; readonly records: readonly ChargerMeterRecord[] }
  | { readonly kind: "ev.sessions"; readonly uuid: string; readonly sessions: readonly ChargingSession[] }
  | { readonly kind: "smart.data"; readonly uuid: string; readonly points: readonly SmartDeviceDataPoint[] };
