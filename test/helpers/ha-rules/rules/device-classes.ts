import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * Home Assistant's sensor constants (homeassistant/components/sensor/const.py DEVICE_CLASS_UNITS
 * and DEVICE_CLASS_STATE_CLASSES), as saved in test/fixtures/ha-sensor-device-class-rules.json.
 * A list of units may hold null (no unit); words instead of a list say "ANY ..." (no unit check,
 * monetary), "NONE ..." (non-numeric: no unit at all) or "UNKNOWN ..." (not in the snapshot).
 */
const ruleSchema = z.strictObject({
  units: z.union([z.array(z.string().nullable()), z.string()]),
  state_classes_allowed: z.union([z.array(z.string()), z.string()]),
});
const rulesSchema = z.record(z.string(), ruleSchema);

export type DeviceClassRule = z.output<typeof ruleSchema>;

export const DEVICE_CLASS_RULES: Readonly<Record<string, DeviceClassRule>> = rulesSchema.parse(
  JSON.parse(readFileSync(new URL("../../../fixtures/ha-sensor-device-class-rules.json", import.meta.url), "utf8")),
);

/** sensor/const.py NON_NUMERIC_DEVICE_CLASSES. */
export const NON_NUMERIC_DEVICE_CLASSES: ReadonlySet<string> = new Set(["date", "enum", "timestamp"]);
