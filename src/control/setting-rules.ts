import { checkValue, describeRules, parseRules } from "../validation/index.js";
import type { SettingDescriptor } from "../vocabulary/index.js";
import type { SettingValue } from "./change.js";

export type SettingCheck =
  | { readonly ok: true; readonly value: SettingValue; readonly unknownRules: readonly string[] }
  | { readonly ok: false; readonly reason: string };

const TIME_WITH_ZERO_SECONDS = /^\d{2}:\d{2}:00$/;

/**
 * Checks a value against the setting's own rules. Home Assistant's time entity sends
 * `HH:mm:00`; when the rules want `H:i`, that is written as `HH:mm`.
 */
export function checkSetting(descriptor: SettingDescriptor, value: SettingValue): SettingCheck {
  const rules = descriptor.validation_rules;
  const result = checkValue(value, rules);
  if (result.ok) return { ok: true, value, unknownRules: result.unknownRules };
  if (typeof value === "string" && TIME_WITH_ZERO_SECONDS.test(value)) {
    const trimmed = value.slice(0, 5);
    const retry = checkValue(trimmed, rules);
    if (retry.ok) return { ok: true, value: trimmed, unknownRules: retry.unknownRules };
  }
  return {
    ok: false,
    reason: `${descriptor.name} ${result.problems.join("; ")} (allowed: ${describeRules(rules)})`,
  };
}

/** A write-only setting (a command such as a restart) can be neither skipped nor read back. */
export function isWriteOnly(descriptor: SettingDescriptor): boolean {
  return parseRules(descriptor.validation_rules).some((rule) => rule.kind === "writeonly");
}
