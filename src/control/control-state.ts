import type { ChargerReadings, PresetValues, ReadableChargerCommand } from "../vocabulary/index.js";
import type { SettingValue } from "./change.js";

/** What an EV charger's controls hold, by the command that sets each. */
export type EvCommandDataMap = { readonly [C in ReadableChargerCommand]?: ChargerReadings[C] };

/** A device's current control values: settings by ID, preset values by identifier, an EV charger's readings by command. */
export interface ControlValues {
  readonly settings?: Readonly<Record<number, SettingValue>>;
  readonly presets?: Readonly<Record<string, PresetValues>>;
  readonly evCommands?: EvCommandDataMap;
}

/** One control value as read from a device (or applied and verified by the gate). */
export type ControlReading =
  | { readonly kind: "setting"; readonly serial: string; readonly settingId: number; readonly value: SettingValue }
  | { readonly kind: "preset"; readonly serial: string; readonly preset: string; readonly values: PresetValues }
  | {
      [C in ReadableChargerCommand]: {
        readonly kind: "ev-command";
        readonly uuid: string;
        readonly command: C;
        readonly data: ChargerReadings[C];
      };
    }[ReadableChargerCommand];

interface Known<V> {
  readonly value: V;
  readonly at: number;
}

interface DeviceEntry {
  readonly settings: Map<number, Known<SettingValue>>;
  readonly presets: Map<string, Known<PresetValues>>;
  readonly evCommands: Map<ReadableChargerCommand, Known<unknown>>;
}

/**
 * The one record of each device's current control values: what the cloud last read back, or
 * what the gate last applied and verified. Home Assistant shows it; the gate skips a write that
 * would change nothing by it, trusting a value only for a while, since the vendor's app or a
 * schedule may change a setting behind our back.
 */
export class ControlState {
  private readonly devices = new Map<string, DeviceEntry>();

  constructor(
    private readonly now: () => number,
    private readonly maxAgeMs: number,
  ) {}

  remember(reading: ControlReading): void {
    const at = this.now();
    if (reading.kind === "setting")
      this.entry(reading.serial).settings.set(reading.settingId, { value: reading.value, at });
    else if (reading.kind === "preset")
      this.entry(reading.serial).presets.set(reading.preset, { value: reading.values, at });
    else this.entry(reading.uuid).evCommands.set(reading.command, { value: reading.data, at });
  }

  /** After a change whose outcome is not known: the value is no longer trusted, nor shown as current. */
  forgetSetting(serial: string, settingId: number): void {
    this.devices.get(serial)?.settings.delete(settingId);
  }

  /** The setting's value when it is recent enough to skip a write by. */
  freshSetting(serial: string, settingId: number): SettingValue | undefined {
    const known = this.devices.get(serial)?.settings.get(settingId);
    return known && this.now() - known.at <= this.maxAgeMs ? known.value : undefined;
  }

  /**
   * After a write to the device: its presets' values other than `kept` may have changed with it
   * (a preset or setting writes settings other presets read), so none of them spares a write any
   * more; they are still shown until read again.
   */
  distrustPresets(serial: string, kept?: string): void {
    const presets = this.devices.get(serial)?.presets;
    if (!presets) return;
    for (const [identifier, known] of presets)
      if (identifier !== kept) presets.set(identifier, { value: known.value, at: Number.NEGATIVE_INFINITY });
  }

  /** The preset's values when they are recent enough to skip a write by. */
  freshPreset(serial: string, preset: string): PresetValues | undefined {
    const known = this.devices.get(serial)?.presets.get(preset);
    return known && this.now() - known.at <= this.maxAgeMs ? known.value : undefined;
  }

  /** Every value known of the device (serial or uuid), however old: the last the device told. */
  values(device: string): ControlValues {
    const entry = this.devices.get(device);
    if (!entry) return {};
    const settings: Record<number, SettingValue> = {};
    for (const [id, known] of entry.settings) settings[id] = known.value;
    const presets: Record<string, PresetValues> = {};
    for (const [identifier, known] of entry.presets) presets[identifier] = known.value;
    const evCommands: Record<string, unknown> = {};
    for (const [command, known] of entry.evCommands) evCommands[command] = known.value;
    // Each command's data went in under its own command (ControlReading ties the two).
    return { settings, presets, evCommands: evCommands as EvCommandDataMap };
  }

  private entry(device: string): DeviceEntry {
    let entry = this.devices.get(device);
    if (!entry) {
      entry = { settings: new Map(), presets: new Map(), evCommands: new Map() };
      this.devices.set(device, entry);
    }
    return entry;
  }
}
