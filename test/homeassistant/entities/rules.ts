import type { EntityDef } from "../../../src/homeassistant/entities/index.js";
import { fixture } from "./inventory.js";

type Rule = { units: (string | null)[] | string; state_classes_allowed: string[] | string };

/** For each sensor device_class: the unit strings and state classes Home Assistant accepts. */
export const RULES = fixture("ha-sensor-device-class-rules.json") as Record<string, Rule>;

/** What is wrong with a sensor's device class, unit and state class; empty when it complies. */
export function sensorProblems(sensor: Pick<EntityDef, "device_class" | "unit" | "state_class">): string[] {
  const problems: string[] = [];
  if (sensor.device_class === undefined) return problems;
  const rule = RULES[sensor.device_class];
  if (!rule) return [`unknown device_class ${sensor.device_class}`];
  const unit = sensor.unit ?? null;
  if (Array.isArray(rule.units)) {
    if (!rule.units.includes(unit)) problems.push(`unit ${unit} not one of ${rule.units.join(", ")}`);
  } else if (rule.units.startsWith("NONE") && unit !== null) {
    problems.push(`unit ${unit} not allowed`);
  } else if (!rule.units.startsWith("NONE") && !rule.units.startsWith("ANY")) {
    problems.push(`units of ${sensor.device_class} unknown`);
  }
  if (!Array.isArray(rule.state_classes_allowed)) {
    problems.push(`state classes of ${sensor.device_class} unknown`);
  } else if (sensor.state_class !== undefined && !rule.state_classes_allowed.includes(sensor.state_class)) {
    problems.push(`state_class ${sensor.state_class} not one of ${rule.state_classes_allowed.join(", ")}`);
  }
  return problems;
}
