import type { DiscoveryConfig } from "../config.js";
import { parseTemplate } from "../template.js";
import type { RuleHit } from "../types.js";
import { DEVICE_CLASS_RULES, NON_NUMERIC_DEVICE_CLASSES } from "./device-classes.js";

/**
 * Rules on a discovery config itself. Those named `rejects*` make Home Assistant refuse the
 * config (the platform's DISCOVERY_SCHEMA raises vol.Invalid, discovery logs an error and no
 * entity is created); the others are warnings it logs about an entity it does create.
 */

/** mqtt/config.py MQTT_RO_SCHEMA and MQTT_RW_SCHEMA, mqtt/select.py and mqtt/button.py: required keys. */
export function rejectsMissingRequiredKeys(component: string, config: DiscoveryConfig): RuleHit[] {
  const required: Readonly<Record<string, readonly (keyof DiscoveryConfig)[]>> = {
    sensor: ["state_topic"],
    binary_sensor: ["state_topic"],
    number: ["command_topic"],
    select: ["command_topic", "options"],
    switch: ["command_topic"],
    button: ["command_topic"],
    time: ["command_topic"],
    text: ["command_topic"],
  };
  return (required[component] ?? [])
    .filter((key) => config[key] === undefined)
    .map((key) => ({
      rule: "config-invalid",
      message: `required key not provided @ data['${String(key)}']: the ${component} is not created`,
      reference: `homeassistant/components/mqtt/config.py ${component === "sensor" || component === "binary_sensor" ? "MQTT_RO_SCHEMA" : "MQTT_RW_SCHEMA"} (via mqtt/${component}.py DISCOVERY_SCHEMA)`,
    }));
}

const SENSOR_VALIDATION = "homeassistant/components/mqtt/sensor.py validate_sensor_state_and_device_class_config";

/** mqtt/sensor.py validate_sensor_state_and_device_class_config: last_reset only with state class total. */
export function rejectsLastResetWithoutTotal(config: DiscoveryConfig): RuleHit[] {
  if (config.last_reset_value_template === undefined || config.state_class === "total") return [];
  return [
    {
      rule: "config-invalid",
      message: `The option \`last_reset_value_template\` cannot be used together with state class \`${String(config.state_class)}\``,
      reference: SENSOR_VALIDATION,
    },
  ];
}

/** mqtt/sensor.py validate_sensor_state_and_device_class_config: options only on an enum, without unit or state class. */
export function rejectsBadSensorOptions(config: DiscoveryConfig): RuleHit[] {
  const { options } = config;
  if (options === undefined) return [];
  const hit = (message: string): RuleHit[] => [{ rule: "config-invalid", message, reference: SENSOR_VALIDATION }];
  if (options.length === 0) return hit("An empty options list is not allowed");
  if (config.state_class || config.unit_of_measurement) {
    return hit("Specifying `options` is not allowed together with the `state_class` or `unit_of_measurement` option");
  }
  if (config.device_class !== "enum") {
    return hit(`The option \`options\` must be used together with device class \`enum\`, got '${config.device_class}'`);
  }
  return [];
}

/** sensor/__init__.py DEVICE_CLASSES_SCHEMA (used by mqtt/sensor.py): an unknown device class is refused. */
export function rejectsUnknownSensorDeviceClass(config: DiscoveryConfig): RuleHit[] {
  const deviceClass = config.device_class;
  if (deviceClass == null || deviceClass in DEVICE_CLASS_RULES) return [];
  return [
    {
      rule: "config-invalid",
      message: `unknown sensor device_class '${deviceClass}'`,
      reference: "homeassistant/components/sensor/const.py SensorDeviceClass (DEVICE_CLASSES_SCHEMA in mqtt/sensor.py)",
    },
  ];
}

/** mqtt/number.py validate_config: `'max' must be > 'min'` (defaults 1 and 100). */
export function rejectsNumberRange(config: DiscoveryConfig): RuleHit[] {
  const min = config.min ?? 1;
  const max = config.max ?? 100;
  if (min < max) return [];
  return [
    {
      rule: "config-invalid",
      message: `'max' must be > 'min' (min ${min}, max ${max})`,
      reference: "homeassistant/components/mqtt/number.py validate_config",
    },
  ];
}

const SENSOR_STATE = "homeassistant/components/sensor/__init__.py SensorEntity.state";

/** sensor/__init__.py SensorEntity.state: a date, enum or timestamp sensor with a unit raises ValueError. */
export function warnsUnitOnNonNumericClass(config: DiscoveryConfig): RuleHit[] {
  const deviceClass = config.device_class;
  if (deviceClass == null || !NON_NUMERIC_DEVICE_CLASSES.has(deviceClass) || !config.unit_of_measurement) return [];
  return [
    {
      rule: "sensor-unit",
      message: `has a unit of measurement and thus indicating it has a numeric value; however, it has the non-numeric device class: ${deviceClass}`,
      reference: SENSOR_STATE,
    },
  ];
}

function unitAllowed(units: readonly (string | null)[] | string, unit: string | null): boolean {
  if (typeof units !== "string") return units.includes(unit);
  // monetary: no DEVICE_CLASS_UNITS entry; the fixture asks for an ISO 4217 code.
  if (units.startsWith("ANY")) return unit !== null && /^[A-Z]{3}$/.test(unit);
  if (units.startsWith("NONE")) return unit === null;
  return true;
}

/** sensor/__init__.py SensorEntity.state: "is using native unit of measurement ... which is not a valid unit for the device class". */
export function warnsUnitForDeviceClass(config: DiscoveryConfig): RuleHit[] {
  const deviceClass = config.device_class;
  const rule = deviceClass == null ? undefined : DEVICE_CLASS_RULES[deviceClass];
  if (!rule || NON_NUMERIC_DEVICE_CLASSES.has(deviceClass ?? "")) return [];
  const unit = config.unit_of_measurement ?? null;
  if (unitAllowed(rule.units, unit)) return [];
  return [
    {
      rule: "sensor-unit",
      message: `is using native unit of measurement '${unit}' which is not a valid unit for the device class ('${deviceClass}'); expected ${JSON.stringify(rule.units)}`,
      reference: `${SENSOR_STATE} (DEVICE_CLASS_UNITS)`,
    },
  ];
}

/** sensor/__init__.py SensorEntity.state: "is using state class ... which is impossible considering device class". */
export function warnsStateClassForDeviceClass(config: DiscoveryConfig): RuleHit[] {
  const deviceClass = config.device_class;
  const stateClass = config.state_class;
  const rule = deviceClass == null ? undefined : DEVICE_CLASS_RULES[deviceClass];
  if (!rule || !stateClass || !Array.isArray(rule.state_classes_allowed)) return [];
  if (rule.state_classes_allowed.includes(stateClass)) return [];
  return [
    {
      rule: "sensor-state-class",
      message: `is using state class '${stateClass}' which is impossible considering device class ('${deviceClass}'); expected None or one of ${JSON.stringify(rule.state_classes_allowed)}`,
      reference: `${SENSOR_STATE} (DEVICE_CLASS_STATE_CLASSES)`,
    },
  ];
}

/** Every template of the config must be one this checker can render: otherwise nothing about it would be checked. */
export function unsupportedTemplates(config: DiscoveryConfig): RuleHit[] {
  const templates: [string, string | undefined][] = [
    ["value_template", config.value_template],
    ["last_reset_value_template", config.last_reset_value_template],
    ["json_attributes_template", config.json_attributes_template],
    ["availability_template", config.availability_template],
    ...(config.availability ?? []).map((entry, i): [string, string | undefined] => [
      `availability[${i}].value_template`,
      entry.value_template,
    ]),
  ];
  return templates.flatMap(([name, template]) => {
    if (template === undefined) return [];
    const parsed = parseTemplate(template);
    if ("expr" in parsed) return [];
    return [
      {
        rule: "template-unsupported",
        message: `${name} "${template}" is ${parsed.unsupported}, which this checker cannot render: extend test/helpers/ha-rules/template.ts`,
        reference: "test/helpers/ha-rules/template.ts parseTemplate (not Home Assistant)",
      },
    ];
  });
}

/** Rules that refuse the config: the entity is not created (or keeps its previous config). */
export function rejections(component: string, config: DiscoveryConfig): RuleHit[] {
  const hits = rejectsMissingRequiredKeys(component, config);
  if (component === "sensor") {
    hits.push(
      ...rejectsLastResetWithoutTotal(config),
      ...rejectsBadSensorOptions(config),
      ...rejectsUnknownSensorDeviceClass(config),
    );
  }
  if (component === "number") hits.push(...rejectsNumberRange(config));
  return hits;
}

/** Rules that let the entity be created but log a warning about it. */
export function configWarnings(component: string, config: DiscoveryConfig): RuleHit[] {
  const hits = unsupportedTemplates(config);
  if (component === "sensor") {
    hits.push(
      ...warnsUnitOnNonNumericClass(config),
      ...warnsUnitForDeviceClass(config),
      ...warnsStateClassForDeviceClass(config),
    );
  }
  return hits;
}
