import type { SettingValue } from "../../control/index.js";
import { quotePayload } from "../../mqtt/index.js";
import type { EntityDef } from "./types.js";
import { round, writeTime } from "./values.js";

export type Parsed =
  | { readonly ok: true; readonly value: SettingValue | undefined }
  | { readonly ok: false; readonly message: string };

const refuse = (entity: EntityDef, allowed: string, payload: string): Parsed => ({
  ok: false,
  message: `${entity.name} must be ${allowed}; got ${quotePayload(payload)}`,
});

/** Plain decimal notation only: Number() would also read 0x10 as 16, 1e1 as 10 and Infinity. */
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

const decimals = (step: number): number => (Number.isInteger(step) ? 0 : (String(step).split(".")[1]?.length ?? 0));

/**
 * A number in plain decimal notation, whole where the entity's step is (the type Home Assistant
 * was told). Its range is the device's rules, checked by the control gate; it is named here only
 * to explain a payload that is not such a number at all.
 */
function parseNumber(entity: EntityDef, payload: string): Parsed {
  const step = entity.step ?? 1;
  const whole = Number.isInteger(step);
  const unit = entity.unit ? ` ${entity.unit}` : "";
  const allowed = `${whole ? "a whole number" : "a number"} from ${entity.min} to ${entity.max}${unit}`;
  const text = payload.trim();
  const value = DECIMAL.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value) || (whole && !Number.isInteger(value))) return refuse(entity, allowed, payload);
  return { ok: true, value: round(value, decimals(step)) };
}

/**
 * Options by their label, or by the value they send (handy in automations). Anything else is
 * passed on as given, for the device's rules to refuse with what they allow.
 */
function parseOption(entity: EntityDef, payload: string): Parsed {
  const options = entity.options ?? [];
  const values = entity.command?.optionValues ?? options;
  const text = payload.trim();
  let index = options.indexOf(text);
  if (index < 0) index = values.findIndex((value) => String(value) === text);
  const value = values[index];
  if (value !== undefined) return { ok: true, value };
  if (text === "") return refuse(entity, `one of: ${options.join(", ")}`, payload);
  return { ok: true, value: DECIMAL.test(text) ? Number(text) : text };
}

/**
 * Reads a command payload as Home Assistant sends it for the entity's component: ON/OFF, a
 * number, an option, a time, a press. Whether the value is allowed is for the device's rules.
 */
export function parsePayload(entity: EntityDef, payload: string): Parsed {
  const text = payload.trim();
  switch (entity.component) {
    case "switch":
      if (text.toUpperCase() === "ON") return { ok: true, value: true };
      if (text.toUpperCase() === "OFF") return { ok: true, value: false };
      return refuse(entity, "ON or OFF", payload);
    case "number":
      return parseNumber(entity, payload);
    case "select":
      return parseOption(entity, payload);
    case "time": {
      const time = writeTime(text);
      return time === undefined ? refuse(entity, "a time as HH:MM or HH:MM:SS", payload) : { ok: true, value: time };
    }
    case "button":
      return text.toUpperCase() === "PRESS"
        ? { ok: true, value: entity.command?.pressValue }
        : refuse(entity, "pressed (payload PRESS)", payload);
    default:
      return { ok: false, message: `${entity.name} is a ${entity.component.replace("_", " ")}, not a control` };
  }
}
