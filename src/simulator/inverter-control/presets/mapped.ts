import { SETTING } from "../setting-ids.js";
import type { PresetContext, PresetDefinition, PresetParameter, SettingWrite } from "./types.js";
import { isOn } from "./values.js";

interface Field {
  readonly id: number;
  readonly description: string;
  /** Rules in front of the setting's own value rules. */
  readonly rules: readonly string[];
}

/** A preset whose every field is one setting. */
function mappedPreset(
  identifier: "eco-mode" | "battery-operating-range" | "pause-battery",
  name: string,
  description: string,
  fields: Readonly<Record<string, Field>>,
  read: (context: PresetContext, id: number) => unknown = (context, id) => context.setting(id),
): PresetDefinition {
  return {
    identifier,
    name,
    description,
    parameters: (context) =>
      Object.fromEntries(
        Object.entries(fields).map(([key, field]): [string, PresetParameter] => [
          key,
          { description: field.description, validation: [...field.rules, ...context.valueRules(field.id)] },
        ]),
      ),
    values: (context) =>
      Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, read(context, field.id)])),
    plan: (_context, body) => ({
      writes: Object.entries(fields).flatMap(([key, field]): SettingWrite[] => {
        const value = body[key];
        if (value === undefined || value === null) return [];
        return typeof value === "boolean" || typeof value === "number" || typeof value === "string"
          ? [{ id: field.id, value }]
          : [];
      }),
    }),
  };
}

export const ecoMode = mappedPreset(
  "eco-mode",
  "Eco Mode",
  "Dynamically charge and discharge the battery to minimise grid import.",
  { enabled: { id: SETTING.ecoMode, description: "Whether Eco mode is on.", rules: ["required"] } },
  (context, id) => isOn(context.setting(id)),
);

export const batteryOperatingRange = mappedPreset(
  "battery-operating-range",
  "Battery Operating Range",
  "The battery levels it keeps in reserve and never goes below, and its charge and discharge power limits.",
  {
    reserve_percent: {
      id: SETTING.batteryReserve,
      description: "Battery level (%) kept in reserve for power cuts.",
      rules: ["optional", "integer"],
    },
    cutoff_percent: {
      id: SETTING.batteryCutoff,
      description: "Battery level (%) below which the battery never discharges.",
      rules: ["optional", "integer"],
    },
    max_charge_watts: {
      id: SETTING.batteryChargePower,
      description: "Battery charge power limit in watts.",
      rules: ["optional", "integer"],
    },
    max_discharge_watts: {
      id: SETTING.batteryDischargePower,
      description: "Battery discharge power limit in watts.",
      rules: ["optional", "integer"],
    },
  },
);

export const pauseBattery = mappedPreset(
  "pause-battery",
  "Pause Battery",
  "Pause the battery's charging, discharging or both, all day or between the given times.",
  {
    mode: {
      id: SETTING.pauseBattery,
      description: "0 Not Paused, 1 Pause Charge, 2 Pause Discharge, 3 Pause Charge and Discharge.",
      rules: ["required", "integer"],
    },
    start_time: { id: SETTING.pauseBatteryStart, description: "Pause start, local time.", rules: ["optional"] },
    end_time: { id: SETTING.pauseBatteryEnd, description: "Pause end, local time.", rules: ["optional"] },
  },
);

export const resetToDefaults: PresetDefinition = {
  identifier: "reset-to-defaults",
  name: "Reset To Defaults",
  description: "Resets all charge modes, timers and limits to factory defaults. Takes no data.",
  parameters: () => ({}),
  values: () => ({}),
  plan: (context) => ({ writes: context.factoryDefaults(), resetInternal: true }),
};
