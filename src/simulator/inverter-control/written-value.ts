import { parseRules } from "../../cloud/index.js";

/**
 * A written value as the real service takes it before checking the setting's rules. Public
 * clients write every value as text (`{"value":"True"}`, `{"value":"4"}`, `{"value":"16:00"}`)
 * and the service accepts it; the rules interpreter already reads numbers sent as text, and
 * `1`/`0` as booleans, so what is left is a boolean setting's "true" and "false" in any case.
 * The reference calls those strings invalid; the evidence (avasapollo_write_bool.json and the
 * clients that send "True") wins here.
 */
export function writtenValue(rules: readonly string[], value: unknown): unknown {
  if (typeof value !== "string") return value;
  const boolean = parseRules(rules).some(
    (rule) => rule.kind === "type" && rule.type === "boolean" && rule.list === "none",
  );
  if (!boolean) return value;
  const text = value.trim().toLowerCase();
  return text === "true" ? true : text === "false" ? false : value;
}
