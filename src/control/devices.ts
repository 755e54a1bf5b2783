import type { ChargerCommandId, PresetDescriptor, SettingDescriptor } from "../vocabulary/index.js";

/**
 * What the gate needs to know about an inverter. The inventory's InverterDevice fits it; it is
 * declared here so that control does not depend on the inventory.
 */
export interface ControlledInverter {
  readonly serial: string;
  /** The inverter acts on remote control (flag is-controllable). */
  readonly controllable: boolean;
  /** Set when the inverter is a child of an EMS plant. */
  readonly emsSerial?: string;
  /** Why the path that found it cannot write to it, when that is not the device's own doing (a LAN-only daemon). */
  readonly noControlReason?: string;
  /** Settings listing (GET .../settings); empty when it could not be read. */
  readonly settings: readonly SettingDescriptor[];
  /** Presets listing (GET .../presets); empty when it could not be read. */
  readonly presets: readonly PresetDescriptor[];
}

/** What the gate needs to know about an EV charger; the inventory's EvChargerDevice fits it. */
export interface ControlledCharger {
  readonly uuid: string;
  readonly alias?: string;
  /** The commands it supports that the daemon knows. */
  readonly commands: readonly ChargerCommandId[];
}

/** The devices as currently known, looked up at each change. */
export interface ControlDevices {
  inverter(serial: string): ControlledInverter | undefined;
  charger(uuid: string): ControlledCharger | undefined;
}
