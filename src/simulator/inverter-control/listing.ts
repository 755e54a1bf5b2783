import { parseRules } from "../../cloud/index.js";
import { CLOUD_SETTINGS } from "../../local/index.js";

export interface SettingDefinition {
  readonly id: number;
  readonly name: string;
  /** The human-readable rule the listing carries, e.g. "Value must be between 4 and 100". */
  readonly validation: string;
  readonly rules: readonly string[];
  /** A write-only setting (83 Restart Inverter) holds no value to read. */
  readonly writeonly: boolean;
}

/** The 79 settings of a real Gen3 hybrid listing (see src/local/data/README.md for where it comes from), in listed order. */
export const GEN3_HYBRID_SETTINGS: readonly SettingDefinition[] = CLOUD_SETTINGS.map((setting) => ({
  id: setting.id,
  name: setting.name,
  validation: setting.validation,
  rules: setting.validation_rules,
  writeonly: parseRules(setting.validation_rules).some((rule) => rule.kind === "writeonly"),
}));
