import type { Device } from "../../telemetry/index.js";
import { slots } from "../../vocabulary/index.js";
import { entitiesFor } from "./catalogue.js";
import type { ControlValues, DeviceDetails, EntityDef, EvCommandDataMap, StateValue, StateValues } from "./types.js";
import { num, onOff, timeState } from "./values.js";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A raw value as the entity's state: ON/OFF, a number, an option's label or HH:MM:SS. */
function asState(entity: EntityDef, raw: unknown): StateValue {
  switch (entity.component) {
    case "switch":
      return onOff(raw);
    case "number":
      return num(raw);
    case "time":
      return timeState(raw);
    case "select": {
      const values = entity.command?.optionValues ?? [];
      const index = values.findIndex((value) => String(value) === String(raw));
      return index < 0 ? null : (entity.options?.[index] ?? null);
    }
    default:
      return null;
  }
}

/** The raw value of a preset field; a slot field is read from `slots`, a list or a map by slot number. */
function presetField(values: Readonly<Record<string, unknown>>, field: string, slot: number | undefined): unknown {
  if (slot === undefined) return values[field];
  const parsed = slots.safeParse(values.slots);
  return parsed.success ? parsed.data[String(slot)]?.[field as "start_time" | "end_time" | "percent_limit"] : undefined;
}

/** Command data: some commands answer the value itself, some `{value}`. */
const scalar = (data: unknown): unknown => (isRecord(data) ? data.value : data);

/** Undefined when the data does not say (nothing to publish), null when it says "none". */
function evValue(entity: EntityDef, data: EvCommandDataMap): unknown {
  const target = entity.command?.target;
  if (target?.kind !== "ev-command") return undefined;
  switch (target.command) {
    case "change-mode":
      return data["change-mode"]?.active;
    case "set-plug-and-go":
      return data["set-plug-and-go"]?.value;
    case "adjust-charge-power-limit": {
      const range = data["adjust-charge-power-limit"];
      return range && (range.unit ?? "A") === "A" ? range.value : undefined;
    }
    case "set-session-energy-limit": {
      const range = data["set-session-energy-limit"];
      return range ? (range.value ?? 0) : undefined;
    }
    case "enable-front-panel-led":
      return scalar(data["enable-front-panel-led"]);
    case "set-max-import-capacity":
      return scalar(data["set-max-import-capacity"]);
    default:
      return undefined;
  }
}

function rawValue(entity: EntityDef, current: ControlValues): unknown {
  const target = entity.command?.target;
  switch (target?.kind) {
    case "setting":
      return current.settings?.[target.settingId];
    case "preset": {
      const values = current.presets?.[target.preset];
      return values && target.field !== undefined ? presetField(values, target.field, target.slot) : undefined;
    }
    case "ev-command":
      return current.evCommands ? evValue(entity, current.evCommands) : undefined;
    default:
      return undefined;
  }
}

/**
 * The device's controls as read from it, under the entity keys: the settings, preset values and
 * EV command data given. Controls `current` says nothing about are left out, so a partial
 * read does not blank the rest.
 */
export function controlState(device: Device, current: ControlValues, details?: DeviceDetails): StateValues {
  const values: StateValues = {};
  for (const entity of entitiesFor(device, details)) {
    if (!entity.command || entity.component === "button") continue;
    const raw = rawValue(entity, current);
    if (raw !== undefined) values[entity.key] = asState(entity, raw);
  }
  return values;
}
