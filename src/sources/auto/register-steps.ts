import type { Inventory, InverterDevice } from "../inventory.js";

/** Whether a value's rules say the device takes it in register steps (`multiple_of`). */
const inSteps = (rules: readonly string[]): boolean => rules.some((rule) => rule.startsWith("multiple_of:"));

/**
 * The cloud's listing with the rules of each value the dongle holds in register steps taken from
 * the LAN (the battery's power limits: HR 111/112, capacity × 10 W a word, up to 0.5 C). A device
 * may hold a limit above the cloud's range (50 words on a 9.5 kWh pack is 4750 W, the cloud
 * offers 3600), and with the state read over the LAN Home Assistant would refuse it as out of range.
 */
export function withLanSteps(cloud: Inventory, lan: Inventory): Inventory {
  const lanBySerial = new Map(lan.inverters.map((inverter) => [inverter.serial.toUpperCase(), inverter]));
  return {
    ...cloud,
    inverters: cloud.inverters.map((inverter) => {
      const overLan = lanBySerial.get(inverter.serial.toUpperCase());
      return overLan ? stepsOf(inverter, overLan) : inverter;
    }),
  };
}

function stepsOf(cloud: InverterDevice, lan: InverterDevice): InverterDevice {
  const lanSettings = new Map(lan.settings.map((setting) => [setting.id, setting]));
  const lanPresets = new Map(lan.presets.map((preset) => [preset.identifier ?? preset.name, preset]));
  return {
    ...cloud,
    settings: cloud.settings.map((setting) => {
      const overLan = lanSettings.get(setting.id);
      return overLan && inSteps(overLan.validation_rules) ? overLan : setting;
    }),
    presets: cloud.presets.map((preset) => {
      const overLan = lanPresets.get(preset.identifier ?? preset.name);
      if (!overLan) return preset;
      const parameters = { ...preset.parameters };
      for (const [field, parameter] of Object.entries(overLan.parameters))
        if (field in parameters && inSteps(parameter.validation)) parameters[field] = parameter;
      return { ...preset, parameters };
    }),
  };
}
