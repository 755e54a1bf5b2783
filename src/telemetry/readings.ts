import type { EmsSystemData } from "../cloud/schemas/ems.js";
import type { ChargerMeterRecord, ChargingSession, EvCharger } from "../cloud/schemas/ev-charger.js";
import type { InverterFaultEvent, MeterData, SystemData } from "../cloud/schemas/inverter-data.js";
import type { SmartDeviceDataPoint } from "../cloud/schemas/smart-device.js";
import type { DeviceId } from "../device-id.js";

/** One fresh piece of telemetry, as the pipelines emit it. `at` is when it was fetched (epoch ms). */
export type Reading =
  | { readonly kind: "inverter.live"; readonly serial: string; readonly at: number; readonly data: SystemData }
  | { readonly kind: "inverter.counters"; readonly serial: string; readonly at: number; readonly data: MeterData }
  | {
      readonly kind: "inverter.events";
      readonly serial: string;
      readonly at: number;
      /** Faults not yet cleared, newest first. */
      readonly active: readonly InverterFaultEvent[];
      readonly latest: InverterFaultEvent | undefined;
    }
  | { readonly kind: "ems"; readonly serial: string; readonly at: number; readonly data: EmsSystemData }
  | { readonly kind: "ev.status"; readonly uuid: string; readonly at: number; readonly data: EvCharger }
  | {
      readonly kind: "ev.meter";
      readonly uuid: string;
      readonly at: number;
      /** The newest record's values by measurand number. */
      readonly latest: ChargerMeterRecord;
    }
  | {
      readonly kind: "ev.session";
      readonly uuid: string;
      readonly at: number;
      readonly session: ChargingSession | undefined;
    }
  | { readonly kind: "smart.data"; readonly uuid: string; readonly at: number; readonly point: SmartDeviceDataPoint }
  | {
      readonly kind: "availability";
      readonly device: DeviceId;
      readonly at: number;
      readonly available: boolean;
      readonly reason: string;
    };

export type ReadingKind = Reading["kind"];

/** A poll that got its answer, changed or not: how fresh its devices' values are. */
export interface PollSucceeded {
  readonly resource: string;
  readonly devices: readonly DeviceId[];
  /** The resource's interval; undefined for one polled only when triggered. */
  readonly periodMs: number | undefined;
  readonly at: number;
}
