import { type DeviceId, deviceIdOf } from "../vocabulary/device-id.js";
import type {
  AccountInfo,
  BatteryModule,
  ChargerCommandId,
  MeterInfo,
  PresetDescriptor,
  SettingDescriptor,
  SiteInfo,
} from "../vocabulary/index.js";

/** What the account has, found at start-up and refreshed now and then. */
export interface Inventory {
  readonly account: AccountInfo;
  /** IANA zone of the account; slot times are in it. */
  readonly timezone: string;
  readonly inverters: readonly InverterDevice[];
  readonly ems: readonly EmsDevice[];
  readonly evChargers: readonly EvChargerDevice[];
  readonly smartDevices: readonly SmartDeviceInfo[];
  readonly sites: readonly SiteInfo[];
}

export interface InverterDevice {
  readonly kind: "inverter";
  readonly serial: string;
  readonly model: string;
  /** The communication device (dongle) it hangs off. */
  readonly dongleSerial: string;
  /** The dongle's connection, e.g. WIFI or GPRS. */
  readonly dongleType?: string;
  /** The listing's status (NORMAL, LOST, ...), as last read. */
  readonly status?: string;
  readonly firmware: {
    readonly arm?: number | string | null;
    readonly dsp?: number | string | null;
    readonly dongle?: string | number | null;
  };
  /** Set when the inverter is a child of an EMS plant: controlled through the EMS, not directly. */
  readonly emsSerial?: string;
  readonly batteryCapacityKwh?: number;
  readonly batteries: readonly BatteryModule[];
  readonly meters: readonly MeterInfo[];
  readonly flags: readonly string[];
  /** The inverter acts on remote control (flag is-controllable). */
  readonly controllable: boolean;
  /** Why no path can write to it, when that is the daemon's configuration, not the device (a LAN-only daemon). */
  readonly noControlReason?: string;
  /** Settings listing (GET .../settings); empty when it could not be read. */
  readonly settings: readonly SettingDescriptor[];
  /** Presets listing (GET .../presets); empty when it could not be read. */
  readonly presets: readonly PresetDescriptor[];
}

/**
 * An EMS plant. Its children are controlled through it (api-notes), and the real service
 * serves its settings and presets on the ordinary inverter endpoints, so a controllable EMS
 * carries the same listings as an inverter.
 */
export interface EmsDevice {
  readonly kind: "ems";
  readonly serial: string;
  readonly model: string;
  readonly inverterSerials: readonly string[];
  readonly flags: readonly string[];
  /** The EMS acts on remote control (flag is-controllable). */
  readonly controllable: boolean;
  /** Why no path can write to it, when that is the daemon's configuration (a LAN-only daemon). */
  readonly noControlReason?: string;
  readonly settings: readonly SettingDescriptor[];
  readonly presets: readonly PresetDescriptor[];
}

/** A device whose settings and presets can be written: a stand-alone inverter, a gateway or an EMS. */
export type ControllableDevice = InverterDevice | EmsDevice;

/** True for a device with settings and presets of its own. */
export function hasControls(device: Device): device is ControllableDevice {
  return (device.kind === "inverter" || device.kind === "ems") && device.controllable;
}

export interface EvChargerDevice {
  readonly kind: "ev_charger";
  readonly uuid: string;
  readonly serial: string;
  readonly alias: string;
  readonly type: string;
  /** The commands it supports that the daemon knows. */
  readonly commands: readonly ChargerCommandId[];
}

export interface SmartDeviceInfo {
  readonly kind: "smart_device";
  readonly uuid: string;
  readonly alias: string;
}

export type Device = InverterDevice | EmsDevice | EvChargerDevice | SmartDeviceInfo;

/** The id used in MQTT topics and unique_ids: serial or uuid, lower-cased. */
export function deviceId(device: Device): DeviceId {
  return deviceIdOf(device.kind === "ev_charger" || device.kind === "smart_device" ? device.uuid : device.serial);
}

/** The dongle of a stand-alone inverter, published as a device of its own so inverters can name it as via_device. */
export function dongleOf(inverter: InverterDevice): { readonly id: DeviceId; readonly serial: string } | undefined {
  if (inverter.emsSerial !== undefined || !inverter.dongleSerial) return undefined;
  return { id: deviceIdOf(inverter.dongleSerial), serial: inverter.dongleSerial };
}

/** Every device of the inventory, in a stable order: inverters, EMS plants, EV chargers, smart devices. */
export function devicesOf(inventory: Inventory): Device[] {
  return [...inventory.inverters, ...inventory.ems, ...inventory.evChargers, ...inventory.smartDevices];
}

/** The name a person sees for a device. */
export function deviceName(device: Device): string {
  switch (device.kind) {
    case "inverter":
      return `Inverter ${device.serial}`;
    case "ems":
      return `EMS ${device.serial}`;
    case "ev_charger":
      return device.alias || `EV charger ${device.serial}`;
    case "smart_device":
      return device.alias || `Smart device ${device.uuid.slice(0, 8)}`;
  }
}
