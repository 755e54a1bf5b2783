import type { ControlReads, DevicePath } from "../../sources/index.js";
import type { SettingValue } from "../change.js";

/**
 * What a device holds now of a control, read only: what a restore saves before a change and
 * compares before putting it back. Features that keep a promise to restore (the rules) get this
 * port, never a client; the cloud implements it now, the local path will too.
 */
export interface DeviceReads {
  /** A preset's values as the device holds them. */
  presetValues(serial: string, preset: string): Promise<Readonly<Record<string, unknown>>>;
  /** A setting's value; undefined when the device does not say. */
  setting(serial: string, settingId: number): Promise<SettingValue | undefined>;
  /** The charger's active mode (change-mode's `active`). */
  chargerMode(uuid: string): Promise<unknown>;
  /** The charger's OCPP status (Charging, SuspendedEV, ...). */
  chargerStatus(uuid: string): Promise<string | null | undefined>;
  /** The charger's current limit (adjust-charge-power-limit's data): the value and its unit, A or W. */
  chargerPowerLimit(uuid: string): Promise<ChargerPowerLimit>;
  /** The path that carries the device's changes now, where known: a preset's side effects differ by path. */
  pathOf?(serial: string): DevicePath;
}

/** adjust-charge-power-limit's command data; a field the charger does not give is undefined. */
export interface ChargerPowerLimit {
  readonly value: number | undefined;
  readonly unit: string | undefined;
  readonly min: number | undefined;
  readonly max: number | undefined;
}

/** A limit its own path set, in amps (how the daemon writes it); no unit's bounds are known there. */
function ownPathLimit(amps: number | undefined): ChargerPowerLimit {
  return { value: amps, unit: "A", min: undefined, max: undefined };
}

/** Reads ahead of a change: first in the cloud's queue, like the change itself. */
const COMMAND = { priority: "command" } as const;

/**
 * The reads through a path's read-only control port (the gate's `reads`, or `cloudControl(client)`):
 * a charger whose own path (OCPP) carries it now is read there, the rest through the cloud.
 */
export function cloudDeviceReads(client: ControlReads): DeviceReads {
  const pathOf = client.pathOf;
  return {
    ...(pathOf ? { pathOf: (serial: string) => pathOf.call(client, serial) } : {}),
    presetValues: (serial, preset) => client.inverters.readPreset(serial, preset, COMMAND),
    async setting(serial, settingId) {
      const read = await client.inverters.readSetting(serial, settingId, COMMAND);
      return read.outcome === "done" && read.value !== null ? read.value : undefined;
    },
    chargerMode: async (uuid) => (await client.cloudOnly.evChargers.read(uuid, "change-mode", COMMAND)).active,
    async chargerStatus(uuid) {
      // A charger on a path of its own (OCPP, Modbus) says its status there; the cloud may not answer.
      if (client.chargers?.carries(uuid)) return client.chargers.status(uuid);
      return client.cloudOnly.evChargers.status(uuid, COMMAND);
    },
    async chargerPowerLimit(uuid) {
      if (client.chargers?.carries(uuid)) return ownPathLimit(client.chargers.currentLimit(uuid));
      const data = await client.cloudOnly.evChargers.read(uuid, "adjust-charge-power-limit", COMMAND);
      return {
        value: data.value ?? undefined,
        unit: data.unit ?? undefined,
        min: data.min ?? undefined,
        max: data.max ?? undefined,
      };
    },
  };
}
