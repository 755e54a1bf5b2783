/*
 * What the daemon knows of a device besides its readings, whichever path found it: its settings
 * and presets with their rules (over the cloud, its listings; over the LAN, the model's registers),
 * its battery modules and meters. The rules are written in one small language both paths use
 * (`between:4,100`, `date_format:H:i`, `boolean`, `required`).
 */

/** The account (or, over the LAN, the house) the devices belong to. */
export interface AccountInfo {
  readonly id: number;
  readonly name: string;
}

/** A site the account lists: only counted. */
export interface SiteInfo {
  readonly id: number | null;
  readonly name: string;
}

/** A setting a device offers: its number, its name and the rules a value must obey. */
export interface SettingDescriptor {
  readonly id: number;
  readonly name: string;
  /** The rule in words, e.g. "Value must be between 4 and 100". */
  readonly validation?: string | null | undefined;
  /** e.g. ["between:4,100"] or ["date_format:H:i"]. */
  readonly validation_rules: string[];
}

/** One field of a preset: the rules its value must obey. */
export interface PresetParameter {
  readonly description?: string | null | undefined;
  readonly validation: string[];
}

/** A preset a device offers: a named group of fields written together. */
export interface PresetDescriptor {
  /** Its number. */
  readonly id: number;
  /** Its name in words, e.g. `timed-charge`; older cloud answers leave it out. */
  readonly identifier?: string | null | undefined;
  readonly name: string;
  readonly description?: string | null | undefined;
  /** Field name -> its rules; empty when the device does not show them. */
  readonly parameters: Record<string, PresetParameter>;
}

/** A battery module of an inverter, as its listing or its BMS registers give it. */
export interface BatteryModule {
  readonly module_number: number;
  readonly serial: string;
  readonly firmware_version?: string | number | null | undefined;
  /** Full and design capacity, Ah. */
  readonly capacity?:
    | { readonly full?: number | null | undefined; readonly design?: number | null | undefined }
    | null
    | undefined;
  readonly cell_count?: number | null | undefined;
  readonly has_usb?: boolean | null | undefined;
  readonly nominal_voltage?: number | null | undefined;
  readonly cycle_count?: number | null | undefined;
}

/** A meter an inverter lists: only counted and named. */
export interface MeterInfo {
  readonly address?: number | null | undefined;
  readonly serial_number?: number | string | null | undefined;
}
