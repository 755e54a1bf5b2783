import type { PresetIdentifier } from "../../../cloud/index.js";
import { EMS_EXPORT_FIELDS } from "./ems-slots.js";
import type { InternalValues, PresetDefinition } from "./types.js";
import { flag, number } from "./values.js";

interface InternalField {
  readonly description: string;
  readonly validation: readonly string[];
  readonly factory: boolean | number;
}

type InternalIdentifier = Extract<
  PresetIdentifier,
  | "winter-battery-conditioning"
  | "plant-ems-enable-control"
  | "grid-settings"
  | "parallel-settings"
  | "generator-mode"
  | "smart-load"
>;

const ENABLED = (description: string): InternalField => ({
  description,
  validation: ["required", "boolean"],
  factory: false,
});

/** Presets with no setting in the listing: their state lives in the simulated inverter only. */
const FIELDS: Readonly<Record<InternalIdentifier, Readonly<Record<string, InternalField>>>> = {
  "winter-battery-conditioning": { enabled: ENABLED("Whether winter battery conditioning is on.") },
  "plant-ems-enable-control": { enabled: ENABLED("Whether the plant's EMS controls import and export.") },
  "grid-settings": {
    export_limit_enabled: {
      description: "Whether export to the grid is limited.",
      validation: ["optional", "boolean"],
      factory: false,
    },
    export_limit_watts: {
      description: "The most the inverter exports, in watts.",
      validation: ["optional", "integer", "between:0,3600"],
      factory: 3600,
    },
  },
  "parallel-settings": { enabled: ENABLED("Whether the inverter runs in parallel with others.") },
  "generator-mode": {
    enabled: ENABLED("Whether the battery charges from a generator."),
    start_soc: {
      description: "Start the generator at this battery level (%).",
      validation: ["optional", "integer", "between:4,100"],
      factory: 20,
    },
    stop_soc: {
      description: "Stop the generator at this battery level (%).",
      validation: ["optional", "integer", "between:4,100"],
      factory: 80,
    },
    charge_power_percent: {
      description: "Charge power from the generator, in % of the maximum.",
      validation: ["optional", "integer", "between:1,100"],
      factory: 100,
    },
  },
  // The service does not show smart-load's parameters; this one is checked but not listed.
  "smart-load": {
    enabled: {
      description: "Whether the smart-load circuit is powered.",
      validation: ["optional", "boolean"],
      factory: false,
    },
  },
};

/** A field's validation rules; undefined for a preset or field with no internal state. */
export function internalFieldRules(
  identifier: PresetIdentifier,
  field: string,
  emsPlant: boolean,
): readonly string[] | undefined {
  if (emsPlant && identifier === "timed-export") return EMS_EXPORT_FIELDS[field]?.rules;
  const fields = (FIELDS as Partial<Record<PresetIdentifier, Readonly<Record<string, InternalField>>>>)[identifier];
  return fields?.[field]?.validation;
}

export function internalFactory(): Record<InternalIdentifier, InternalValues> {
  const out = {} as Record<InternalIdentifier, InternalValues>;
  for (const [identifier, fields] of Object.entries(FIELDS) as [InternalIdentifier, Record<string, InternalField>][]) {
    out[identifier] = Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.factory]));
  }
  return out;
}

function internalPreset(
  identifier: InternalIdentifier,
  name: string,
  description: string,
  shown = true,
): PresetDefinition {
  const fields = FIELDS[identifier];
  const rules = Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.validation]));
  return {
    identifier,
    name,
    description,
    parameters: () =>
      shown
        ? Object.fromEntries(
            Object.entries(fields).map(([key, field]) => [
              key,
              { description: field.description, validation: field.validation },
            ]),
          )
        : {},
    ...(shown ? {} : { hiddenRules: rules }),
    values: (context) => ({ ...context.internal(identifier) }),
    plan: (context, body) => {
      const values: Record<string, boolean | number | string> = { ...context.internal(identifier) };
      for (const [key, field] of Object.entries(fields)) {
        const given = typeof field.factory === "boolean" ? flag(body[key]) : number(body[key]);
        if (given !== undefined) values[key] = given;
      }
      return { writes: [], internal: { identifier, values } };
    },
  };
}

export const winterBatteryConditioning = internalPreset(
  "winter-battery-conditioning",
  "Winter Battery Conditioning",
  "Charges or discharges the battery for 10 minutes when its temperature reaches 2 degrees Celsius. It uses energy and may incur cost at peak rates. It supersedes configured charge and discharge slots.",
);
export const plantEmsEnableControl = internalPreset(
  "plant-ems-enable-control",
  "Plant EMS Control",
  "The plant minimises grid import and export.",
);
export const gridSettings = internalPreset("grid-settings", "Grid Settings", "Import and export limitations.");
export const parallelSettings = internalPreset(
  "parallel-settings",
  "Parallel Settings",
  "Only for parallel installations.",
);
export const generatorMode = internalPreset(
  "generator-mode",
  "Generator Mode",
  "Charges the battery from a generator.",
);
export const smartLoad = internalPreset("smart-load", "Smart Load", "Powers the smart-load circuit.", false);
