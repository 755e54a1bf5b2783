import type { SettingDescriptor } from "../cloud/schemas/inverter-control.js";

/**
 * Presets and the settings they write, by the settings' names (IDs differ by model, names do
 * not). A change through one side changes the other on the inverter, so after a change the
 * other side is read again and both entities in Home Assistant show the same value.
 */
const LINKS: readonly { readonly preset: string; readonly settings: RegExp }[] = [
  {
    preset: "battery-operating-range",
    settings: /^Battery (Reserve|Cutoff) % Limit$|^Battery (Charge|Discharge) Power$/,
  },
  { preset: "eco-mode", settings: /^Enable Eco Mode$/ },
  { preset: "timed-charge", settings: /^AC Charge (Enable|\d+ (Start|End) Time|\d+ Upper SOC % Limit)$/ },
  { preset: "timed-discharge", settings: /^(Enable DC Discharge|DC Discharge \d+ (Start|End) Time)$/ },
  { preset: "timed-export", settings: /^(Enable DC Discharge|DC Discharge \d+ (Start|End) Time)$/ },
  { preset: "pause-battery", settings: /^Pause Battery( Start Time| End Time)?$/ },
];

/** Setting IDs of the device's listing that the preset writes. */
export function settingsOfPreset(preset: string, settings: readonly SettingDescriptor[]): number[] {
  const link = LINKS.find((one) => one.preset === preset);
  return link ? settings.filter((setting) => link.settings.test(setting.name)).map((setting) => setting.id) : [];
}

/** Presets that write the setting with this ID. */
export function presetsOfSetting(settingId: number, settings: readonly SettingDescriptor[]): string[] {
  const name = settings.find((setting) => setting.id === settingId)?.name;
  return name === undefined ? [] : LINKS.filter((link) => link.settings.test(name)).map((link) => link.preset);
}
