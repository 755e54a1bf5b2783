import type {
  ChargerMeterRecord,
  ChargingSession,
  InverterDataPoint,
  InverterFaultEvent,
  SmartDeviceDataPoint,
} from "../cloud/index.js";
import type { ChargerSession, StateValues } from "../vocabulary/index.js";

/**
 * What one poll of one resource fetched, whichever path fetched it: the one shape on the bus.
 * The device's state (telemetry's stateOf) and the history's rows are both made from it. `at`
 * is when it was fetched (epoch ms).
 *
 * An inverter's and an EMS's readings are in the daemon's own words (`values`, src/vocabulary/),
 * whichever path read them; `measuredAt` is when the device measured them, when the path says.
 * The history's 5-minute points, an inverter's fault events, an EV charger's and a smart device's
 * readings are the cloud's own records: only the cloud has them (the LAN writes its points in the
 * same shape, the history's row format). `latest` is the newest item, chosen by the source, which
 * knows the service's time zone.
 */
export type Fetched =
  | {
      readonly kind: "inverter.live";
      readonly serial: string;
      readonly at: number;
      readonly measuredAt: number | undefined;
      readonly values: StateValues;
    }
  | {
      readonly kind: "inverter.points";
      readonly serial: string;
      readonly at: number;
      /** Points not fetched before, oldest first, for the history. */
      readonly points: readonly InverterDataPoint[];
      /** The energy counters of the newest point seen so far (new or not). */
      readonly counters: StateValues | undefined;
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
  | {
      readonly kind: "ems";
      readonly serial: string;
      readonly at: number;
      readonly measuredAt: number | undefined;
      readonly values: StateValues;
    }
  | { readonly kind: "ev.status"; readonly uuid: string; readonly at: number; readonly values: StateValues }
  | {
      readonly kind: "ev.meter";
      readonly uuid: string;
      readonly at: number;
      /** The meter's records, for the history (the cloud's; a path without them gives none). */
      readonly records: readonly ChargerMeterRecord[];
      /** The newest values under the charger's state keys, and when they were measured. */
      readonly values: StateValues | undefined;
      readonly measuredAt: number | undefined;
    }
  | {
      readonly kind: "ev.sessions";
      readonly uuid: string;
      readonly at: number;
      /** The sessions' records, for the history (the cloud's; a path without them gives none). */
      readonly sessions: readonly ChargingSession[];
      /** The newest session, open or not. */
      readonly session: ChargerSession | undefined;
    }
  | {
      readonly kind: "smart.data";
      readonly uuid: string;
      readonly at: number;
      /** Newest first. */
      readonly points: readonly SmartDeviceDataPoint[];
    };

export type FetchedKind = Fetched["kind"];
