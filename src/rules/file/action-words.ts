import { type Action, actionKind, chargerCommand } from "./action-schema.js";
import { renderTemplates, type TemplateContext } from "./templates.js";

/**
 * One action in words, as the Plan page shows it: "Timed charge to 95% 01:00–04:00 on inverter
 * SD2024G001", "Charger: Boost". describeAction (action-text.ts) stays the exact form, as sent.
 */
export interface ActionWordsOptions {
  /** The serial an action without `inverter` goes to (the account's only or first inverter). */
  readonly defaultInverter?: string | undefined;
}

type Fields = Readonly<Record<string, unknown>>;

const PAUSE_MODES = [
  "Battery not paused",
  "Pause battery charging",
  "Hold the battery (pause discharging)",
  "Pause battery charging and discharging",
];

const PRESET_NAMES: Readonly<Record<string, string>> = {
  "eco-mode": "Eco mode",
  "timed-charge": "Timed charge",
  "timed-discharge": "Timed discharge",
  "timed-export": "Timed export",
  "winter-battery-conditioning": "Winter battery conditioning",
  "plant-ems-enable-control": "EMS control",
  "parallel-settings": "Parallel operation",
  "generator-mode": "Generator mode",
  "battery-operating-range": "Battery operating range",
  "grid-settings": "Grid settings",
  "smart-load": "Smart load",
  "reset-to-defaults": "Reset the inverter's presets to their defaults",
  "pause-battery": "Pause battery",
};

export function actionWords(action: Action, context: TemplateContext, options: ActionWordsOptions = {}): string {
  const fields = (renderTemplates(action.with ?? {}, context) ?? {}) as Fields;
  switch (actionKind(action)) {
    case "preset":
      return `${presetWords(action.preset ?? "", fields)}${onInverter(action.inverter ?? options.defaultInverter)}`;
    case "setting": {
      const value = renderTemplates(action.value, context);
      const name = typeof action.setting === "number" ? `setting ${action.setting}` : `“${action.setting}”`;
      return `Set ${name} to ${valueWords(value)}${onInverter(action.inverter ?? options.defaultInverter)}`;
    }
    case "charger":
      return `Charger: ${chargerWords(chargerCommand(action) ?? action.charger ?? "", fields)}${action.uuid ? ` (charger ${action.uuid})` : ""}`;
    case "notify": {
      const title = renderTemplates(action.notify?.title ?? "", context);
      return `Notify “${valueWords(title)}”`;
    }
    case "snapshot":
      return `${action.snapshot === "take" ? "Take" : "Restore"} the settings snapshot${action.name ? ` “${action.name}”` : ""}${onInverter(action.inverter ?? options.defaultInverter)}`;
  }
}

function onInverter(serial: string | undefined): string {
  return serial ? ` on inverter ${serial}` : " on the default inverter";
}

/** A preset with its (rendered) fields in words: "Timed charge to 95% 01:00–04:00". */
export function presetWords(preset: string, fields: Fields): string {
  const name = PRESET_NAMES[preset] ?? preset;
  switch (preset) {
    case "timed-charge":
    case "timed-discharge":
    case "timed-export": {
      if (fields.enabled === false) return `${name} off`;
      const verb = preset === "timed-charge" ? "to" : "down to";
      const slots = slotsOf(fields.slots).map((slot) => slotWords(slot, verb));
      const power = typeof fields.max_power_watts === "number" ? ` at most ${fields.max_power_watts} W` : "";
      return `${name}${slots.length ? ` ${slots.join(", ")}` : " on"}${power}`;
    }
    case "pause-battery": {
      const mode =
        typeof fields.mode === "number" ? (PAUSE_MODES[fields.mode] ?? `Pause battery mode ${fields.mode}`) : name;
      return `${mode}${span(fields.start_time, fields.end_time)}`;
    }
    case "reset-to-defaults":
      return name;
    default: {
      if (Object.keys(fields).length === 1 && typeof fields.enabled === "boolean")
        return `${name} ${fields.enabled ? "on" : "off"}`;
      return `${name}${fieldList(fields)}`;
    }
  }
}

function slotsOf(value: unknown): Fields[] {
  if (Array.isArray(value)) return value.filter(isFields);
  if (isFields(value)) return Object.values(value).filter(isFields);
  return [];
}

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function slotWords(slot: Fields, verb: string): string {
  const limit = typeof slot.percent_limit === "number" ? `${verb} ${slot.percent_limit}%` : "";
  return `${limit}${span(slot.start_time, slot.end_time)}`.trim();
}

function span(start: unknown, end: unknown): string {
  if (typeof start !== "string" || typeof end !== "string") return "";
  return ` ${start}–${end}`;
}

/** A charger command with its (rendered) fields in words: "stop after 20 kWh". */
export function chargerWords(command: string, fields: Fields): string {
  switch (command) {
    case "change-mode":
      return typeof fields.mode === "string" ? fields.mode : "change mode";
    case "start-charge":
      return "start charging";
    case "stop-charge":
      return "stop charging";
    case "adjust-charge-power-limit":
      return `charge power limit ${valueWords(fields.limit)}`;
    case "set-plug-and-go":
      return `plug and go ${fields.enabled ? "on" : "off"}`;
    case "set-session-energy-limit":
      return typeof fields.limit === "number" ? `stop after ${fields.limit} kWh` : "no session energy limit";
    case "set-schedule": {
      const periods = Array.isArray(fields.periods) ? fields.periods.filter(isFields) : [];
      const times = periods.map((period) => span(period.start_time, period.end_time).trim()).filter(Boolean);
      const name = typeof fields.name === "string" ? ` “${fields.name}”` : "";
      return `charging schedule${name}${times.length ? ` ${times.join(", ")}` : ""}`;
    }
    case "set-active-schedule":
      return "make the schedule active";
    case "unlock-connector":
      return "unlock the connector";
    case "restart-charger":
      return "restart";
    default:
      return `${command.replace(/-/g, " ")}${fieldList(fields)}`;
  }
}

/** "key: value" pairs in words; nested values flattened to text without braces. */
function fieldList(fields: Fields): string {
  const entries = Object.entries(fields);
  if (entries.length === 0) return "";
  return ` (${entries.map(([key, value]) => `${key.replace(/_/g, " ")} ${valueWords(value)}`).join(", ")})`;
}

export function valueWords(value: unknown): string {
  if (value === null || value === undefined) return "unset";
  if (typeof value === "boolean") return value ? "on" : "off";
  if (Array.isArray(value)) return value.map(valueWords).join(", ");
  if (isFields(value))
    return Object.entries(value)
      .map(([key, inner]) => `${key.replace(/_/g, " ")} ${valueWords(inner)}`)
      .join(", ");
  return String(value);
}
