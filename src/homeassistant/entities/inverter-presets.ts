import { parseRules } from "../../validation/index.js";
import type { PresetDescriptor, PresetParameter } from "../../vocabulary/index.js";
import { PAUSE_BATTERY_MODES, PRESETS } from "../../vocabulary/index.js";
import { controlEntity, unitFor } from "./control-entity.js";
import { ruleShape } from "./rule-shape.js";
import type { EntityDef } from "./types.js";
import { slug } from "./values.js";

const ICONS: Readonly<Record<string, string>> = {
  "eco-mode": "mdi:leaf",
  "timed-charge": "mdi:battery-clock",
  "timed-discharge": "mdi:battery-arrow-down",
  "timed-export": "mdi:transmission-tower-export",
  "pause-battery": "mdi:pause-circle-outline",
  "winter-battery-conditioning": "mdi:snowflake-thermometer",
  "generator-mode": "mdi:engine",
};

/** Select labels the listing's rules cannot carry. */
const LABELS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "pause-battery.mode": Object.fromEntries(Object.entries(PAUSE_BATTERY_MODES)),
};

/** The identifier, also for older listings that give only the legacy ID. */
export function presetIdentifier(preset: PresetDescriptor): string | undefined {
  if (preset.identifier) return preset.identifier;
  return Object.entries(PRESETS).find(([, id]) => id === preset.id)?.[0];
}

/** `max_power_watts` -> `max power`, `start_soc` -> `start SOC`; the unit says the rest. */
function words(field: string): string {
  return field
    .replace(/_(percent|watts)$/, "")
    .split("_")
    .map((word) => (word === "soc" ? "SOC" : word))
    .join(" ");
}

const SLOT_WORDS: Readonly<Record<string, string>> = { start_time: "start", end_time: "end", percent_limit: "limit" };

const isRequired = (parameter: PresetParameter): boolean =>
  parseRules(parameter.validation).some((rule) => rule.kind === "required");

/** Slots a timed preset takes: the `max` (or `between`) of its `slots` rules; one when not said. */
function slotCount(parameters: Readonly<Record<string, PresetParameter>>): number {
  let count = 1;
  for (const rule of parseRules(parameters.slots?.validation ?? [])) {
    if (rule.kind === "max") count = rule.limit;
    else if (rule.kind === "between") count = rule.max;
  }
  return Math.max(1, Math.floor(count));
}

function topLevelControls(identifier: string, preset: PresetDescriptor, required: readonly string[]): EntityDef[] {
  const base = slug(identifier);
  return Object.entries(preset.parameters).flatMap(([field, parameter]): EntityDef[] => {
    if (field === "slots" || /[.*]/.test(field)) return [];
    const shape = ruleShape(parameter.validation);
    if (!shape) return [];
    const main = field === "enabled" || (identifier === "pause-battery" && field === "mode");
    const labels = LABELS[`${identifier}.${field}`];
    return [
      controlEntity(shape, {
        key: field === "enabled" ? base : `${base}_${slug(field)}`,
        name: field === "enabled" ? preset.name : `${preset.name} ${words(field)}`,
        target: { kind: "preset", preset: identifier, field, alsoRequired: required.filter((name) => name !== field) },
        rules: parameter.validation,
        ...(labels ? { labels } : {}),
        extra: {
          ...unitFor(field),
          ...(main ? {} : { entity_category: "config" }),
          ...(main && ICONS[identifier] ? { icon: ICONS[identifier] } : {}),
        },
      }),
    ];
  });
}

function slotControls(identifier: string, preset: PresetDescriptor, required: readonly string[]): EntityDef[] {
  const fields = Object.entries(preset.parameters).flatMap(([key, parameter]) => {
    const field = /^slots\.\*\.([a-z0-9_]+)$/.exec(key)?.[1];
    return field ? [{ field, parameter }] : [];
  });
  if (fields.length === 0) return [];
  const base = slug(identifier);
  return Array.from({ length: slotCount(preset.parameters) }, (_, index) => index + 1).flatMap((slot) =>
    fields.flatMap(({ field, parameter }): EntityDef[] => {
      const shape = ruleShape(parameter.validation);
      if (!shape) return [];
      return [
        controlEntity(shape, {
          key: `${base}_slot_${slot}_${slug(field)}`,
          name: `${preset.name} slot ${slot} ${SLOT_WORDS[field] ?? words(field)}`,
          target: { kind: "preset", preset: identifier, field, slot, alsoRequired: required },
          rules: parameter.validation,
          extra: { ...unitFor(field), entity_category: "config" },
        }),
      ];
    }),
  );
}

/**
 * Controls for every preset the inverter lists: the `enabled` switch under the preset's own
 * key (`eco_mode`), other fields as `<preset>_<field>`, slot fields as
 * `<preset>_slot_<n>_<field>`. Reset to defaults is a button, off by default; presets whose
 * parameters are not shown (smart-load) get no control.
 */
export function presetEntities(presets: readonly PresetDescriptor[]): EntityDef[] {
  return presets.flatMap((preset): EntityDef[] => {
    const identifier = presetIdentifier(preset);
    if (!identifier) return [];
    if (identifier === "reset-to-defaults") {
      return [
        {
          key: "reset_to_defaults",
          component: "button",
          name: preset.name,
          icon: "mdi:restore",
          entity_category: "config",
          enabled_by_default: false,
          command: { target: { kind: "preset", preset: identifier, alsoRequired: [] }, rules: [] },
        },
      ];
    }
    const required = Object.entries(preset.parameters)
      .filter(([field, parameter]) => !/[.*]/.test(field) && isRequired(parameter))
      .map(([field]) => field);
    return [...topLevelControls(identifier, preset, required), ...slotControls(identifier, preset, required)];
  });
}
