import type {
  ChargerMeterSample,
  ChargerSession,
  ChargerSessionRecord,
  InverterFault,
  InverterPoint,
  SmartDeviceReading,
  StateValues,
} from "../vocabulary/index.js";

/**
 * What one poll of one resource fetched, whichever path fetched it: the one shape on the bus.
 * The device's state (telemetry's stateOf) and the history's rows are both made from it. `at`
 * is when it was fetched (epoch ms).
 *
 * Everything here is in the daemon's own words (src/vocabulary/), whichever path read it: an
 * inverter's and an EMS's readings as `values`, with `measuredAt` when the device measured them,
 * when the path says; the history's 5-minute points, an inverter's faults, an EV charger's meter
 * samples and sessions, as the history keeps them; a smart device's readings. `latest` is the
 * newest item, chosen by the source, which knows the service's time zone.
 */
export type Fetched =
  | {
      readonly kind: "inverter.live";
      readonly serial: string;
      readonly at: number;
      readonly measuredAt: number | undefined;
      readonly values: StateValues;
      /**
       * The cloud's stamp of its latest reading (system data's `time`), null when it has none;
       * only the cloud gives it. Not a clock the daemon reads or sets (docs/clock.md): shown as
       * it is, as GivTCP's invertor_time over the cloud (homeassistant.naming: givtcp).
       */
      readonly cloudTime?: number | null;
    }
  | {
      readonly kind: "inverter.points";
      readonly serial: string;
      readonly at: number;
      /** Points not fetched before, oldest first, for the history. */
      readonly points: readonly InverterPoint[];
      /** The energy counters of the newest point seen so far (new or not). */
      readonly counters: StateValues | undefined;
    }
  | {
      readonly kind: "inverter.events";
      readonly serial: string;
      readonly at: number;
      /** Faults not yet cleared, newest first. */
      readonly active: readonly InverterFault[];
      /** A fault that dropped out of the uncleared list in this poll, as it ended. */
      readonly ended: InverterFault | undefined;
      /** The newest of the uncleared faults and the last one that cleared. */
      readonly latest: InverterFault | undefined;
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
      /** The meter's samples, for the history (a path without them gives none). */
      readonly records: readonly ChargerMeterSample[];
      /** The newest values under the charger's state keys, and when they were measured. */
      readonly values: StateValues | undefined;
      readonly measuredAt: number | undefined;
    }
  | {
      readonly kind: "ev.sessions";
      readonly uuid: string;
      readonly at: number;
      /** The sessions' records, for the history (a path without them gives none). */
      readonly sessions: readonly ChargerSessionRecord[];
      /** The newest session, open or not. */
      readonly session: ChargerSession | undefined;
    }
  | {
      readonly kind: "smart.data";
      readonly uuid: string;
      readonly at: number;
      /** Newest first. */
      readonly points: readonly SmartDeviceReading[];
    };

export type FetchedKind = Fetched["kind"];
