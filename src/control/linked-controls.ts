import type { SettingDescriptor } from "../vocabulary/index.js";

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

/**
 * Preset fields that are one setting each, by the setting's name: what a change wrote through
 * one side, as read back, is the other side's value too, so it is shown without reading it.
 */
const FIELDS: Readonly<Record<string, Readonly<Record<string, RegExp>>>> = {
  "battery-operating-range": {
    reserve_percent: /^Battery Reserve % Limit$/,
    cutoff_percent: /^Battery Cutoff % Limit$/,
    max_charge_watts: /^Battery Charge Power$/,
    max_discharge_watts: /^Battery Discharge Power$/,
  },
  "eco-mode": { enabled: /^Enable Eco Mode$/ },
  "pause-battery": {
    mode: /^Pause Battery$/,
    start_time: /^Pause Battery Start Time$/,
    end_time: /^Pause Battery End Time$/,
  },
};

/** The preset's fields that are one setting each, with that setting's ID in the device's listing. */
export function fieldSettings(
  preset: string,
  settings: readonly SettingDescriptor[],
): { readonly field: string; readonly settingId: number }[] {
  const fields = FIELDS[preset] ?? {};
  return Object.entries(fields).flatMap(([field, name]) => {
    const setting = settings.find((one) => name.test(one.name));
    return setting ? [{ field, settingId: setting.id }] : [];
  });
}
