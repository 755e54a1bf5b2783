import type { SettingValue } from "./change.js";

interface Known {
  readonly value: SettingValue;
  readonly at: number;
}

/**
 * The last known value of each inverter setting, from reads and confirmed writes. Entries age
 * out, since the vendor's app or a schedule may change a setting behind our back.
 */
export class SettingCache {
  private readonly values = new Map<string, Map<number, Known>>();

  constructor(
    private readonly now: () => number,
    private readonly maxAgeMs: number,
  ) {}

  remember(serial: string, settingId: number, value: SettingValue): void {
    let settings = this.values.get(serial);
    if (!settings) {
      settings = new Map();
      this.values.set(serial, settings);
    }
    settings.set(settingId, { value, at: this.now() });
  }

  forget(serial: string, settingId: number): void {
    this.values.get(serial)?.delete(settingId);
  }

  get(serial: string, settingId: number): SettingValue | undefined {
    const known = this.values.get(serial)?.get(settingId);
    if (!known) return undefined;
    if (this.now() - known.at > this.maxAgeMs) {
      this.forget(serial, settingId);
      return undefined;
    }
    return known.value;
  }
}
