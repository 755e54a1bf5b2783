import type {
  ChargerMeterRecord,
  ChargingSession,
  EmsSystemData,
  EvCharger,
  InverterDataPoint,
  InverterFaultEvent,
  SmartDeviceDataPoint,
  SystemData,
} from "../cloud/index.js";

/**
 * What one poll of one resource fetched, whichever path fetched it: the one shape on the bus.
 * The device's state (telemetry's stateOf) and the history's rows are both made from it. `at`
 * is when it was fetched (epoch ms); `latest` is the newest item, chosen by the source, which
 * knows the service's time zone.
 */
export type Fetched =
  | { readonly kind: "inverter.live"; readonly serial: string; readonly at: number; readonly data: SystemData }
  | {
      readonly kind: "inverter.points";
      readonly serial: string;
      readonly at: number;
      /** Points not fetched before, oldest first, for the history. */
      readonly points: readonly InverterDataPoint[];
      /** The newest point seen so far (new or not), for the energy counters. */
      readonly latest: InverterDataPoint | undefined;
    }
  | {
      readonly kind: "inverter.events";
      readonly serial: string;
      readonly at: number;
      /** Faults not yet cleared, newest first. */
      readonly active: readonly InverterFaultEvent[];
      /** A fault that dropped out of the uncleared list in this poll, as it ended. */
      readonly ended: InverterFaultEvent | undefined;
      /** The newest of the uncleared faults and the last one that cleared. */
      readonly latest: InverterFaultEvent | undefined;
    }
  | { readonly kind: "ems"; readonly serial: string; readonly at: number; readonly data: EmsSystemData }
  | { readonly kind: "ev.status"; readonly uuid: string; readonly at: number; readonly data: EvCharger }
  | {
      readonly kind: "ev.meter";
      readonly uuid: string;
      readonly at: number;
      readonly records: readonly ChargerMeterRecord[];
      readonly latest: ChargerMeterRecord | undefined;
    }
  | {
      readonly kind: "ev.sessions";
      readonly uuid: string;
      readonly at: number;
      readonly sessions: readonly ChargingSession[];
      /** The newest session, open or not. */
      readonly latest: ChargingSession | undefined;
    }
  | {
      readonly kind: "smart.data";
      readonly uuid: string;
      readonly at: number;
      /** Newest first. */
      readonly points: readonly SmartDeviceDataPoint[];
    };

export type FetchedKind = Fetched["kind"];
