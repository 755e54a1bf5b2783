import type { SettingValue } from "../../control/index.js";
import type { ChargerCommandId } from "../../vocabulary/index.js";

export type Component = "sensor" | "binary_sensor" | "switch" | "number" | "select" | "time" | "button";

/** A value in a device's state JSON: numbers as numbers, switches "ON"/"OFF", times "HH:MM:SS". */
export type { StateValue, StateValues } from "../../vocabulary/index.js";

/** Where a control's command goes. */
export type CommandTarget =
  | { readonly kind: "setting"; readonly settingId: number }
  | {
      readonly kind: "preset";
      /** Preset identifier, e.g. timed-charge. */
      readonly preset: string;
      /** Left out for a preset that takes no data (reset-to-defaults). */
      readonly field?: string;
      /** 1-based slot number, for a slot field of a timed preset. */
      readonly slot?: number;
      /** Other fields the preset needs in every request (its `required` parameters). */
      readonly alsoRequired: readonly string[];
    }
  | {
      readonly kind: "ev-command";
      readonly command: ChargerCommandId;
      /** The request field that carries the value; none for commands without fields. */
      readonly field?: string;
    }
  /** The device's own clock set to the house's time now (docs/clock.md), through the clock watch. */
  | { readonly kind: "clock-sync" };

/** How an incoming MQTT payload becomes a ChangeRequest. */
export interface CommandBinding {
  readonly target: CommandTarget;
  /**
   * Validation rules of the listing the control was shaped from (settings and preset fields);
   * a value is checked against them by the control gate only, not here.
   */
  readonly rules: readonly string[];
  /** For selects: the value sent for each entry of `options`, in the same order. */
  readonly optionValues?: readonly (string | number)[];
  /** For buttons: the value written (a write-only setting's exact value). */
  readonly pressValue?: SettingValue;
  /** For numbers: this value sends the command without its field (no limit). */
  readonly noneValue?: number;
}

/** One Home Assistant entity of a device. */
export interface EntityDef {
  /** snake_case, stable: the key in the device's state JSON and the command topic suffix. */
  readonly key: string;
  readonly component: Component;
  readonly name: string;
  readonly device_class?: string;
  readonly unit?: string;
  readonly state_class?: "measurement" | "total" | "total_increasing";
  readonly icon?: string;
  readonly entity_category?: "config" | "diagnostic";
  /** False for entities most users do not need; they can enable them in Home Assistant. */
  readonly enabled_by_default?: boolean;
  readonly options?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly mode?: "auto" | "box" | "slider";
  readonly command?: CommandBinding;
  /**
   * Announced only once the device has reported a value for it (live data, counters, meter
   * measurands): a gateway, an EMS child or a charger that never sends it gets no entity.
   */
  readonly requiresData?: boolean;
  /**
   * Announced only once the device has reported a value for this other key: a button that acts
   * on what that key shows (Sync clock, once the LAN reports the clock's drift).
   */
  readonly requiresDataOf?: string;
  /**
   * An energy counter the Energy dashboard reads: it never goes down, except a daily counter
   * at the device's local midnight. A drop otherwise is a glitch to hold back.
   */
  readonly counter?: "daily" | "lifetime";
}

/**
 * What the catalogue learns about a device beyond the inventory. Everything is optional; the
 * catalogue falls back to the usual layout, and discovery can be sent again when this grows.
 */
export interface DeviceDetails {
  /** Solar arrays (MPPT inputs) the inverter's live data reports. */
  readonly solarArrays?: number;
  /** Meters behind an EMS, as its system data lists them. */
  readonly emsMeters?: number;
  /** Modes the EV charger offers (change-mode's `available`). */
  readonly evModes?: readonly string[];
  /**
   * State keys the device has reported a value (not null) for, sorted. Left out, every entity
   * of the catalogue is listed (the reference docs); set, entities that require data are
   * listed only for these keys.
   */
  readonly seenKeys?: readonly string[];
}

/** ControlValues: the device's current control values, as the control gate records them (read from it, or applied). */
export type { ControlValues, EvCommandDataMap } from "../../control/index.js";
