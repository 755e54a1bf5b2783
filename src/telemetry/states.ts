import type { Fetched } from "../sources/index.js";
import type { DeviceId } from "../vocabulary/device-id.js";
import type { ChargerSession, InverterFault, SmartDeviceReading, StateValues } from "../vocabulary/index.js";

/**
 * What a fetched answer says a device's values are now: what Home Assistant's state, the web
 * page and the rules read. Made from the one fetched shape by stateOf; `at` is when it was fetched.
 */
export type DeviceState =
  /** An inverter's or EMS's values and a charger's status: the fetched reading as it is. */
  | Extract<Fetched, { readonly kind: "inverter.live" | "ems" | "ev.status" }>
  | { readonly kind: "inverter.counters"; readonly serial: string; readonly at: number; readonly values: StateValues }
  | {
      readonly kind: "inverter.events";
      readonly serial: string;
      readonly at: number;
      /** Faults not yet cleared, newest first. */
      readonly active: readonly InverterFault[];
      readonly latest: InverterFault | undefined;
    }
  | {
      readonly kind: "ev.meter";
      readonly uuid: string;
      readonly at: number;
      /** The newest values under the charger's state keys, and when the charger measured them. */
      readonly values: StateValues;
      readonly measuredAt: number | undefined;
    }
  | {
      readonly kind: "ev.session";
      readonly uuid: string;
      readonly at: number;
      readonly session: ChargerSession | undefined;
    }
  | { readonly kind: "smart.data"; readonly uuid: string; readonly at: number; readonly point: SmartDeviceReading };

export type DeviceStateKind = DeviceState["kind"];

/** The device's values a fetched answer carries; undefined when it carries none (no record yet). */
export function stateOf(fetched: Fetched): DeviceState | undefined {
  const { at } = fetched;
  switch (fetched.kind) {
    case "inverter.live":
    case "ems":
    case "ev.status":
      return fetched;
    case "inverter.points":
      return fetched.counters && { kind: "inverter.counters", serial: fetched.serial, at, values: fetched.counters };
    case "inverter.events":
      return { kind: "inverter.events", serial: fetched.serial, at, active: fetched.active, latest: fetched.latest };
    case "ev.meter":
      return (
        fetched.values && {
          kind: "ev.meter",
          uuid: fetched.uuid,
          at,
          values: fetched.values,
          measuredAt: fetched.measuredAt,
        }
      );
    case "ev.sessions":
      return { kind: "ev.session", uuid: fetched.uuid, at, session: fetched.session };
    case "smart.data": {
      const point = fetched.points[0];
      return point && { kind: "smart.data", uuid: fetched.uuid, at, point };
    }
  }
}

/** A device became available or unavailable (telemetry's verdict from its resources' polls). */
export interface Availability {
  readonly kind: "availability";
  readonly device: DeviceId;
  readonly at: number;
  readonly available: boolean;
  readonly reason: string;
}

/** A poll that got its answer, changed or not: how fresh its devices' values are. */
export interface PollSucceeded {
  readonly resource: string;
  readonly devices: readonly DeviceId[];
  /** The resource's interval; undefined for one polled only when triggered. */
  readonly periodMs: number | undefined;
  readonly at: number;
}
