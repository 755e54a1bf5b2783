import { parseHaDatetime, parseTimeOfDay, pythonFloat, pythonIsNumeric } from "../python.js";
import type { Rendered } from "../template.js";
import type { DiscoveredEntity, RuleHit } from "../types.js";
import { NON_NUMERIC_DEVICE_CLASSES } from "./device-classes.js";

/**
 * What each MQTT platform does with the rendered value_template of a state message. Each
 * returns what Home Assistant would log (or silently drop); a sensor also returns the number it
 * now holds, for the recorder rules.
 */

/** PAYLOAD_NONE in mqtt/const.py: what `{{ value_json.x }}` prints for a JSON null. */
const PAYLOAD_NONE = "None";

/** helpers/template/__init__.py: an undefined name logs "Template variable warning" when printed, an error when looked into. */
export function templateHits(rendered: Rendered, template: string): RuleHit[] {
  return [
    ...rendered.undefinedNames.map((name) => ({
      rule: "template-undefined",
      message: `Template variable warning: ${name} when rendering '${template}'`,
      reference: "homeassistant/helpers/template/__init__.py make_logging_undefined LoggingUndefined._log_message",
    })),
    ...rendered.errors.map((error) => ({
      rule: "template-error",
      message: `Template variable error: ${error} when rendering '${template}'`,
      reference:
        "homeassistant/helpers/template/__init__.py LoggingUndefined._fail_with_undefined_error; mqtt/models.py MqttValueTemplate.async_render_with_possible_json_value",
    })),
    ...rendered.dictMethods.map((path) => ({
      rule: "template-dict-method",
      message: `${path} renders the dict's method, not the key: use value_json['...']`,
      reference: "jinja2 sandbox Environment.getattr (attribute before item), used by helpers/template",
    })),
  ];
}

/**
 * Issue 12's bar, stricter than Home Assistant: every key a value template reads is in every
 * state message on its topic (null when not known). A `default(...)` filter keeps Home
 * Assistant quiet about a missing key (jinja2 do_default takes the Undefined without printing
 * it), so this is reported only where the template did not already log something.
 */
export function missingKeyHits(rendered: Rendered, template: string): RuleHit[] {
  if (rendered.undefinedNames.length > 0 || rendered.errors.length > 0) return [];
  return rendered.missingPaths.map((path) => ({
    rule: "state-key-missing",
    message: `${path} is not in the state message; '${template}' falls back to its default without a word`,
    reference: "issue 12 (Done means); jinja2 filters do_default as used by homeassistant/helpers/template",
  }));
}

/** sensor/__init__.py _numeric_state_expected. */
export function numericStateExpected(entity: DiscoveredEntity): boolean {
  const { config } = entity;
  const deviceClass = typeof config.device_class === "string" ? config.device_class : undefined;
  if (deviceClass !== undefined && NON_NUMERIC_DEVICE_CLASSES.has(deviceClass)) return false;
  if (config.state_class != null || config.unit_of_measurement != null || config.suggested_display_precision != null) {
    return true;
  }
  return deviceClass !== undefined;
}

const MQTT_SENSOR = "homeassistant/components/mqtt/sensor.py MqttSensor._update_state";

/**
 * mqtt/sensor.py MqttSensor._update_state, then sensor/__init__.py SensorEntity.state when the
 * state is written: "None" is unknown; a numeric sensor takes any non-empty text, which must
 * then be a finite number; options filter; a timestamp or date must parse (with a time zone).
 */
export function sensorState(entity: DiscoveredEntity, payload: string): { hits: RuleHit[]; value?: number } {
  if (payload === PAYLOAD_NONE) return { hits: [] };
  const { config } = entity;
  const options = Array.isArray(config.options) ? config.options.map(String) : undefined;
  if (numericStateExpected(entity)) {
    if (payload === "") return { hits: [] }; // "Ignore empty state" (debug)
    const value = pythonFloat(payload);
    if (value === undefined || !Number.isFinite(value)) {
      return {
        hits: [
          {
            rule: "sensor-non-numeric",
            message: `has device class '${String(config.device_class ?? null)}', state class '${String(config.state_class ?? null)}' unit '${String(config.unit_of_measurement ?? null)}' thus indicating it has a numeric value; however, it has the non-${value === undefined ? "numeric" : "finite"} value: '${payload}'`,
            reference: "homeassistant/components/sensor/__init__.py SensorEntity.state",
          },
        ],
      };
    }
    return { hits: [], value };
  }
  if (options && !options.includes(payload)) {
    return {
      hits: [
        {
          rule: "sensor-invalid-option",
          message: `Ignoring invalid option received, got '${payload}', allowed: ${options.join(", ")}`,
          reference: MQTT_SENSOR,
        },
      ],
    };
  }
  const deviceClass = config.device_class;
  if (deviceClass == null || deviceClass === "enum") {
    if (payload.length <= 255) return { hits: [] };
    return {
      hits: [
        {
          rule: "sensor-state-too-long",
          message: `Cannot update state: the state is ${payload.length} characters, the maximum is 255`,
          reference: "homeassistant/components/mqtt/util.py check_state_too_long",
        },
      ],
    };
  }
  const parsed = parseHaDatetime(payload);
  if (!parsed) {
    return {
      hits: [
        { rule: "sensor-invalid-datetime", message: `Invalid state message '${payload}'`, reference: MQTT_SENSOR },
      ],
    };
  }
  if (deviceClass === "timestamp" && !parsed.hasTimezone) {
    return {
      hits: [
        {
          rule: "sensor-invalid-datetime",
          message: `Invalid datetime: provides state '${payload}', which is missing timezone information`,
          reference: "homeassistant/components/sensor/__init__.py SensorEntity.state",
        },
      ],
    };
  }
  return { hits: [] };
}

/**
 * mqtt/sensor.py MqttSensor._update_last_reset: an empty rendering is ignored (debug); anything
 * else must parse as a date-time, or "Invalid last_reset message" is logged. A JSON null
 * renders "None", which does not parse.
 */
export function lastResetState(payload: string): RuleHit[] {
  if (payload === "" || parseHaDatetime(payload)) return [];
  return [
    {
      rule: "last-reset-invalid",
      message: `Invalid last_reset message '${payload}'`,
      reference: "homeassistant/components/mqtt/sensor.py MqttSensor._update_last_reset",
    },
  ];
}

const MQTT_NUMBER = "homeassistant/components/mqtt/number.py MqttNumber._message_received";

/** mqtt/number.py MqttNumber._message_received: payload_reset ("None") is unknown, else int/float within min..max. */
export function numberState(entity: DiscoveredEntity, payload: string): RuleHit[] {
  if (payload.trim() === "") return [];
  const { config } = entity;
  const reset = typeof config.payload_reset === "string" ? config.payload_reset : PAYLOAD_NONE;
  if (payload === reset) return [];
  const value = pythonIsNumeric(payload) ? Number(payload) : pythonFloat(payload);
  if (value === undefined) {
    return [{ rule: "number-not-a-number", message: `Payload '${payload}' is not a Number`, reference: MQTT_NUMBER }];
  }
  const min = typeof config.min === "number" ? config.min : 1;
  const max = typeof config.max === "number" ? config.max : 100;
  if (value < min || value > max) {
    return [
      {
        rule: "number-out-of-range",
        message: `Invalid value for ${entity.uniqueId}: ${payload} (range ${min} - ${max})`,
        reference: MQTT_NUMBER,
      },
    ];
  }
  return [];
}

/** mqtt/select.py MqttSelect._message_received: empty ignored, "none" (any case) is unknown, else one of the options. */
export function selectState(entity: DiscoveredEntity, payload: string): RuleHit[] {
  if (payload.trim() === "" || payload.toLowerCase() === "none") return [];
  const options = Array.isArray(entity.config.options) ? entity.config.options.map(String) : [];
  if (options.includes(payload)) return [];
  return [
    {
      rule: "select-invalid-option",
      message: `Invalid option for ${entity.uniqueId}: '${payload}' (valid options: ${options.join(", ")})`,
      reference: "homeassistant/components/mqtt/select.py MqttSelect._message_received",
    },
  ];
}

/**
 * mqtt/switch.py MqttSwitch._state_message_received: state_on (default payload_on "ON"),
 * state_off (default payload_off "OFF") or "None"; anything else is dropped without a word,
 * and the switch keeps showing its old state.
 */
export function switchState(entity: DiscoveredEntity, payload: string): RuleHit[] {
  const { config } = entity;
  const on = String(config.state_on ?? config.payload_on ?? "ON");
  const off = String(config.state_off ?? config.payload_off ?? "OFF");
  if (payload === on || payload === off || payload === PAYLOAD_NONE) return [];
  return [
    {
      rule: "switch-state-unmatched",
      message: `'${payload}' is neither state_on '${on}', state_off '${off}' nor None: ignored, the switch keeps its old state`,
      reference: "homeassistant/components/mqtt/switch.py MqttSwitch._state_message_received",
    },
  ];
}

/** mqtt/binary_sensor.py MqttBinarySensor._state_message_received: payload_on, payload_off or "None", else "No matching payload found". */
export function binarySensorState(entity: DiscoveredEntity, payload: string): RuleHit[] {
  if (payload.trim() === "") return [];
  const { config } = entity;
  const on = String(config.payload_on ?? "ON");
  const off = String(config.payload_off ?? "OFF");
  if (payload === on || payload === off || payload === PAYLOAD_NONE) return [];
  return [
    {
      rule: "binary-sensor-no-match",
      message: `No matching payload found for entity ${entity.uniqueId}: '${payload}' (payload_on '${on}', payload_off '${off}')`,
      reference: "homeassistant/components/mqtt/binary_sensor.py MqttBinarySensor._state_message_received",
    },
  ];
}

/** mqtt/time.py MqttTimeEntity._handle_state_message_received: "None" unknown, empty ignored, else a time of day. */
export function timeState(payload: string): RuleHit[] {
  if (payload === PAYLOAD_NONE || payload === "" || parseTimeOfDay(payload)) return [];
  return [
    {
      rule: "time-invalid",
      message: `Invalid received time expression, got ${payload}`,
      reference: "homeassistant/components/mqtt/time.py MqttTimeEntity._handle_state_message_received",
    },
  ];
}

/**
 * sensor/recorder.py reset_detected: a total_increasing value below the previous one is either a
 * dip (at least 90% of it: warn_dip, "state is not strictly increasing") or a new meter cycle
 * (below 90%: the statistics start counting again from the new value, so a glitch becomes a
 * spike on the Energy dashboard); a negative value is warn_negative. Every decrease is reported
 * here; the caller allows the documented ones (the daily reset of today_* counters).
 */
export function totalIncreasingDecrease(previous: number, value: number): RuleHit[] {
  if (value >= previous) return [];
  const kind = value < 0 ? "negative" : value >= 0.9 * previous ? "dip" : "reset";
  const said = {
    dip: "has state class total_increasing, but its state is not strictly increasing (warn_dip)",
    reset: "dropped by more than 10%: the recorder starts a new meter cycle (reset_detected)",
    negative: "has state class total_increasing, but its state is negative (warn_negative)",
  }[kind];
  return [
    {
      rule: "total-increasing-decrease",
      message: `${said}: ${previous} -> ${value}`,
      reference: "homeassistant/components/sensor/recorder.py reset_detected / warn_dip / warn_negative",
      detail: { previous, value, kind },
    },
  ];
}
