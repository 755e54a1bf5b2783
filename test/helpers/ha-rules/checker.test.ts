import { describe, expect, it } from "vitest";
import { checkHomeAssistantRules, replayHomeAssistant } from "./checker.js";
import { parseHaDatetime, pythonFloat, pythonStr } from "./python.js";
import type { CheckOptions, RecordedMessage } from "./types.js";

const PREFIX = "ha";
const STATE = "e2m/dev1";
const OPTIONS: CheckOptions = { discoveryPrefix: PREFIX };

const configTopic = (component: string, key: string) => `${PREFIX}/${component}/dev1/${key}/config`;

/** A retained discovery config reading `key` from the device's state, as the daemon writes them. */
function config(component: string, key: string, extra: Record<string, unknown> = {}, retain = true): RecordedMessage {
  const body = {
    name: key,
    unique_id: `e2m_dev1_${key}`,
    state_topic: STATE,
    value_template: `{{ value_json.${key} }}`,
    ...(["number", "select", "switch", "button", "time"].includes(component)
      ? { command_topic: `${STATE}/set/${key}` }
      : {}),
    ...extra,
  };
  return { topic: configTopic(component, key), payload: JSON.stringify(body), retain };
}

const state = (values: Record<string, unknown>, at?: number): RecordedMessage => ({
  topic: STATE,
  payload: JSON.stringify(values),
  retain: true,
  ...(at === undefined ? {} : { at }),
});
const removal = (component: string, key: string, retain = true): RecordedMessage => ({
  topic: configTopic(component, key),
  payload: "",
  retain,
});
const birth: RecordedMessage = { topic: `${PREFIX}/status`, payload: "online", retain: false };

/** Rule ids found while the messages flow; most cases leave no state at the end, so the end-state rule is tested on its own. */
const rules = (messages: RecordedMessage[], options: CheckOptions = OPTIONS) =>
  allRules(messages, options).filter((rule) => rule !== "dangling-config");
const allRules = (messages: RecordedMessage[], options: CheckOptions = OPTIONS) =>
  checkHomeAssistantRules(messages, options).map((f) => f.rule);

const power = (extra: Record<string, unknown> = {}) =>
  config("sensor", "power", { device_class: "power", unit_of_measurement: "W", state_class: "measurement", ...extra });

describe("rendering like Home Assistant's Jinja", () => {
  it("prints JSON values the way Python's str() does", () => {
    // JSON.stringify writes 1e16 as digits (a Python int) and 1e21 with an exponent (a float).
    expect([null, true, false, 5, 2.5, 1e-5, 1e16, 1e21, "ON"].map(pythonStr)).toEqual([
      "None",
      "True",
      "False",
      "5",
      "2.5",
      "1e-05",
      "10000000000000000",
      "1e+21",
      "ON",
    ]);
    expect(pythonStr({ a: [1, null] })).toBe("{'a': [1, None]}");
  });

  it("parses numbers as float() does and date-times as dt_util.parse_datetime does", () => {
    expect(pythonFloat(" 1_000.5 ")).toBe(1000.5);
    expect(pythonFloat("1e3")).toBe(1000);
    expect(pythonFloat("True")).toBeUndefined();
    expect(pythonFloat("")).toBeUndefined();
    expect(parseHaDatetime("2024-03-14T10:00:00.000Z")).toEqual({ hasTimezone: true, dateOnly: false });
    expect(parseHaDatetime("2024-02-30")).toBeUndefined();
  });
});

describe("template-undefined: a key the state does not carry", () => {
  it("passes when every state message carries the key, null included", () => {
    expect(rules([power(), state({ power: 5 }), state({ power: null })])).toEqual([]);
  });

  it("reports each state message without the key", () => {
    const findings = checkHomeAssistantRules([power(), state({ other: 1 }), state({ power: 1 })], OPTIONS);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      rule: "template-undefined",
      topic: STATE,
      uniqueId: "e2m_dev1_power",
      key: "power",
      message: expect.stringContaining("'dict object' has no attribute 'power'"),
      reference: expect.stringContaining("homeassistant/helpers/template"),
    });
  });

  it("replays the retained state to an entity configured after it, as a new subscription does", () => {
    expect(rules([state({ other: 1 }), power()])).toEqual(["template-undefined"]);
    expect(rules([state({ power: 1 }), power()])).toEqual([]);
  });

  it("applies the bracket form and abbreviated configs with ~", () => {
    const abbreviated: RecordedMessage = {
      topic: configTopic("sensor", "soc"),
      payload: JSON.stringify({ "~": "e2m/dev1", uniq_id: "soc", stat_t: "~", val_tpl: "{{ value_json['soc'] }}" }),
      retain: true,
    };
    expect(rules([abbreviated, state({ soc: 50 })])).toEqual([]);
    expect(rules([abbreviated, state({ other: 50 })])).toEqual(["template-undefined"]);
  });

  it("checks availability and attribute templates on their own topics", () => {
    const sensor = config("sensor", "note", {
      availability: [{ topic: "e2m/bridge/state", value_template: "{{ value_json.state }}" }],
      json_attributes_topic: STATE,
      json_attributes_template: "{{ {'end': value_json.end} | tojson }}",
    });
    expect(rules([sensor, { topic: "e2m/bridge/state", payload: '{"state":"online"}', retain: true }])).toEqual([]);
    expect(rules([sensor, { topic: "e2m/bridge/state", payload: '{"status":"online"}', retain: true }])).toEqual([
      "template-undefined",
    ]);
    expect(rules([sensor, state({ note: "x", end: null })])).toEqual([]);
    expect(rules([sensor, state({ note: "x" })])).toEqual(["template-error"]);
  });
});

describe("availability, as MqttAvailabilityMixin keeps it", () => {
  const BRIDGE = "e2m/bridge/state";
  const bridge = (state: string): RecordedMessage => ({
    topic: BRIDGE,
    payload: JSON.stringify({ state }),
    retain: true,
  });
  const keyed = config("sensor", "power", {
    value_template: "{{ value_json.power | default(none) }}",
    availability: [
      { topic: BRIDGE, value_template: "{{ value_json.state }}" },
      {
        topic: STATE,
        value_template: "{{ 'online' if value_json.power is defined and value_json.power is not none else 'offline' }}",
      },
    ],
    availability_mode: "all",
  });
  const unavailable = (messages: readonly RecordedMessage[]) => replayHomeAssistant(messages, OPTIONS).unavailable;

  it("starts unavailable until every topic of mode all says available", () => {
    expect(unavailable([keyed])).toEqual([configTopic("sensor", "power")]);
    expect(unavailable([keyed, bridge("online")])).toEqual([configTopic("sensor", "power")]);
    expect(unavailable([keyed, bridge("online"), state({ power: 5 })])).toEqual([]);
  });

  it("follows the key: null or missing makes it unavailable, a value brings it back, all without a log line", () => {
    const run = [keyed, bridge("online"), state({ power: 5 }), state({ power: null })];
    expect(unavailable(run)).toEqual([configTopic("sensor", "power")]);
    expect(unavailable([...run, state({ power: 0 })])).toEqual([]);
    expect(unavailable([...run, state({ power: 0 }), state({ other: 1 })])).toEqual([configTopic("sensor", "power")]);
    expect(rules([...run, state({ power: 0 })])).toEqual([]);
  });

  it("keeps what a topic said when a payload is neither available nor not available", () => {
    const plain = config("sensor", "soc", { availability: [{ topic: "e2m/dev1/availability" }] });
    const at = (payload: string): RecordedMessage => ({ topic: "e2m/dev1/availability", payload, retain: true });
    expect(unavailable([plain, at("online"), at("rebooting")])).toEqual([]);
    expect(unavailable([plain, at("offline"), at("rebooting")])).toEqual([configTopic("sensor", "soc")]);
    expect(unavailable([config("sensor", "soc")])).toEqual([]);
  });

  it("reports looking into a key that is not there, even behind a test", () => {
    const PACK = "e2m/dev1/pack";
    const deep = config("sensor", "cell", {
      availability: [
        { topic: PACK, value_template: "{{ 'online' if value_json.pack.cell is defined else 'offline' }}" },
      ],
    });
    const pack = (values: Record<string, unknown>): RecordedMessage => ({
      topic: PACK,
      payload: JSON.stringify(values),
      retain: true,
    });
    expect(rules([deep, pack({ pack: { cell: 1 } }), pack({ pack: {} })])).toEqual([]);
    expect(rules([deep, pack({ cell: 1 })])).toEqual(["template-error"]);
  });
});

describe("state-key-missing: the issue's bar where a default() keeps Home Assistant quiet", () => {
  const safe = config("sensor", "power", {
    device_class: "power",
    unit_of_measurement: "W",
    value_template: "{{ value_json.power | default(none) }}",
  });

  it("passes when the key is there, null included", () => {
    expect(rules([safe, state({ power: 5 }), state({ power: null })])).toEqual([]);
  });

  it("reports the missing key once, instead of Home Assistant's template warning", () => {
    const findings = checkHomeAssistantRules([safe, state({ other: 1 }), state({ power: 1 })], OPTIONS);
    expect(findings.map((f) => f.rule)).toEqual(["state-key-missing"]);
  });

  it("does not make a null last_reset valid: default() only replaces what is undefined", () => {
    const cost = config("sensor", "cost", {
      device_class: "monetary",
      unit_of_measurement: "GBP",
      state_class: "total",
      last_reset_value_template: "{{ value_json.since | default(none) }}",
    });
    expect(rules([cost, state({ cost: 1, since: "2024-03-14T00:00:00+00:00" })])).toEqual([]);
    expect(rules([cost, state({ cost: null, since: null })])).toEqual(["last-reset-invalid"]);
    const blank = config("sensor", "cost", {
      state_class: "total",
      last_reset_value_template: "{{ value_json.since | default('', true) }}",
    });
    expect(rules([blank, state({ cost: null, since: null })])).toEqual([]);
  });
});

describe("template-error, template-dict-method, template-unsupported", () => {
  it("reports looking into a missing key, and a payload that is not JSON", () => {
    const nested = config("sensor", "deep", { value_template: "{{ value_json.a.b }}" });
    expect(rules([nested, state({ a: { b: "x" } })])).toEqual([]);
    expect(rules([nested, state({ c: 1 })])).toEqual(["template-error"]);
    expect(rules([config("sensor", "x"), { topic: STATE, payload: "not json", retain: true }])).toEqual([
      "template-error",
    ]);
  });

  it("reports a dotted key that is a dict method", () => {
    expect(rules([config("sensor", "values"), state({ values: 1 })])).toEqual(["template-dict-method"]);
    expect(
      rules([config("sensor", "v", { value_template: "{{ value_json['values'] }}" }), state({ values: 1 })]),
    ).toEqual([]);
  });

  it("refuses to pass a template it cannot render", () => {
    expect(rules([config("sensor", "p", { value_template: "{{ value_json.p | float(0) }}" })])).toEqual([
      "template-unsupported",
    ]);
  });
});

describe("sensor states (mqtt/sensor.py, sensor/__init__.py)", () => {
  it("takes numbers and null on a numeric sensor, refuses text", () => {
    expect(rules([power(), state({ power: 1.5 }), state({ power: null }), state({ power: "2" })])).toEqual([]);
    expect(rules([power(), state({ power: "n/a" })])).toEqual(["sensor-non-numeric"]);
    expect(rules([power(), state({ power: true })])).toEqual(["sensor-non-numeric"]);
    // suggested_display_precision alone makes a sensor numeric
    expect(rules([config("sensor", "p", { suggested_display_precision: 1 }), state({ p: "x" })])).toEqual([
      "sensor-non-numeric",
    ]);
  });

  it("keeps an enum sensor to its options", () => {
    const mode = config("sensor", "mode", { device_class: "enum", options: ["eco", "timed"] });
    expect(rules([mode, state({ mode: "eco" }), state({ mode: null })])).toEqual([]);
    expect(rules([mode, state({ mode: "boost" })])).toEqual(["sensor-invalid-option"]);
  });

  it("wants a timestamp with a time zone", () => {
    const at = config("sensor", "at", { device_class: "timestamp" });
    expect(rules([at, state({ at: "2024-03-14T10:00:00.000Z" }), state({ at: null })])).toEqual([]);
    expect(rules([at, state({ at: "soon" })])).toEqual(["sensor-invalid-datetime"]);
    expect(rules([at, state({ at: "2024-03-14T10:00:00" })])).toEqual(["sensor-invalid-datetime"]);
  });

  it("refuses a text state longer than 255 characters", () => {
    expect(rules([config("sensor", "t"), state({ t: "x".repeat(255) })])).toEqual([]);
    expect(rules([config("sensor", "t"), state({ t: "x".repeat(256) })])).toEqual(["sensor-state-too-long"]);
  });
});

describe("sensor configs (validate_sensor_state_and_device_class_config, device class rules)", () => {
  it("accepts units and state classes the device class allows", () => {
    const energy = config("sensor", "e", {
      device_class: "energy",
      unit_of_measurement: "kWh",
      state_class: "total_increasing",
    });
    const money = config("sensor", "c", { device_class: "monetary", unit_of_measurement: "GBP", state_class: "total" });
    expect(rules([power(), energy, money])).toEqual([]);
  });

  it("reports a unit or state class the device class does not allow", () => {
    expect(rules([power({ unit_of_measurement: "kWh" })])).toEqual(["sensor-unit"]);
    expect(rules([power({ state_class: "total_increasing" })])).toEqual(["sensor-state-class"]);
    expect(rules([config("sensor", "c", { device_class: "monetary", unit_of_measurement: "£" })])).toEqual([
      "sensor-unit",
    ]);
    expect(rules([config("sensor", "at", { device_class: "timestamp", unit_of_measurement: "s" })])).toEqual([
      "sensor-unit",
    ]);
  });

  it("refuses last_reset without state class total, options outside enum, unknown classes: no entity follows", () => {
    const lastReset = { last_reset_value_template: "{{ value_json.since }}" };
    expect(
      rules([power({ state_class: "total", device_class: "energy", unit_of_measurement: "kWh", ...lastReset })]),
    ).toEqual([]);
    expect(rules([power(lastReset), state({ nothing: 1 })])).toEqual(["config-invalid"]);
    // refused once: the retained config is not reported again as dangling
    expect(allRules([power(lastReset)])).toEqual(["config-invalid"]);
    expect(rules([config("sensor", "m", { options: ["a"] })])).toEqual(["config-invalid"]);
    expect(rules([config("sensor", "m", { device_class: "enum", options: [] })])).toEqual(["config-invalid"]);
    expect(rules([config("sensor", "m", { device_class: "wattage" })])).toEqual(["config-invalid"]);
  });
});

describe("last-reset-invalid (mqtt/sensor.py _update_last_reset)", () => {
  const cost = config("sensor", "cost", {
    device_class: "monetary",
    unit_of_measurement: "GBP",
    state_class: "total",
    last_reset_value_template: "{{ value_json.cost_since }}",
  });

  it("passes an ISO date-time", () => {
    expect(rules([cost, state({ cost: 1.2, cost_since: "2024-03-14T00:00:00.000Z" })])).toEqual([]);
  });

  it("reports a null last_reset (it renders None)", () => {
    expect(rules([cost, state({ cost: null, cost_since: null })])).toEqual(["last-reset-invalid"]);
  });
});

describe("number, select, switch, binary_sensor, time", () => {
  const reserve = config("number", "reserve", { min: 4, max: 100, step: 1 });
  it("number: within min and max, or null", () => {
    expect(rules([reserve, state({ reserve: 30 }), state({ reserve: null }), state({ reserve: 100 })])).toEqual([]);
    expect(rules([reserve, state({ reserve: 3 })])).toEqual(["number-out-of-range"]);
    expect(rules([reserve, state({ reserve: "lots" })])).toEqual(["number-not-a-number"]);
    expect(rules([config("number", "n", { min: 5, max: 5 })])).toEqual(["config-invalid"]);
  });

  it("select: one of the options, or null", () => {
    const mode = config("select", "mode", { options: ["Eco", "Timed"] });
    expect(rules([mode, state({ mode: "Eco" }), state({ mode: null })])).toEqual([]);
    expect(rules([mode, state({ mode: "eco" })])).toEqual(["select-invalid-option"]);
    expect(rules([config("select", "m", { options: undefined })])).toEqual(["config-invalid"]);
  });

  it("switch: state_on, state_off or null", () => {
    const sw = config("switch", "on", { state_on: "ON", state_off: "OFF" });
    expect(rules([sw, state({ on: "ON" }), state({ on: "OFF" }), state({ on: null })])).toEqual([]);
    expect(rules([sw, state({ on: true })])).toEqual(["switch-state-unmatched"]);
  });

  it("binary_sensor: payload_on, payload_off or null", () => {
    const plugged = config("binary_sensor", "plugged", { payload_on: "ON", payload_off: "OFF" });
    expect(rules([plugged, state({ plugged: "ON" }), state({ plugged: null })])).toEqual([]);
    expect(rules([plugged, state({ plugged: "yes" })])).toEqual(["binary-sensor-no-match"]);
  });

  it("time: a time of day or null", () => {
    const start = config("time", "start");
    expect(rules([start, state({ start: "05:30" }), state({ start: "23:59:00" }), state({ start: null })])).toEqual([]);
    expect(rules([start, state({ start: "half past five" })])).toEqual(["time-invalid"]);
  });
});

describe("total-increasing-decrease (sensor/recorder.py reset_detected)", () => {
  const today = config("sensor", "today_import", {
    device_class: "energy",
    unit_of_measurement: "kWh",
    state_class: "total_increasing",
  });

  it("passes a counter that only rises, across unknown values", () => {
    expect(
      rules([today, state({ today_import: 1 }), state({ today_import: null }), state({ today_import: 1.5 })]),
    ).toEqual([]);
  });

  it("reports every decrease, saying whether Home Assistant sees a dip or a new cycle", () => {
    const findings = checkHomeAssistantRules(
      [
        today,
        state({ today_import: 10 }, 1000),
        state({ today_import: 9.5 }, 2000),
        state({ today_import: 0 }, 3000),
        state({ today_import: -1 }, 4000),
      ],
      OPTIONS,
    );
    expect(findings.map((f) => [f.rule, f.detail?.kind, f.detail?.previousAt, f.at])).toEqual([
      ["total-increasing-decrease", "dip", 1000, 2000],
      ["total-increasing-decrease", "reset", 2000, 3000],
      ["total-increasing-decrease", "negative", 3000, 4000],
    ]);
    expect(findings[0]?.key).toBe("today_import");
  });
});

describe("duplicate-config-publish", () => {
  it("allows the same config again after a birth message, and a changed config at any time", () => {
    expect(rules([power(), birth, power(), power({ name: "Power now" })])).toEqual([]);
  });

  it("reports the same config published twice with no birth in between", () => {
    const findings = checkHomeAssistantRules([power(), power(), birth, power(), power(), state({ power: 1 })], OPTIONS);
    expect(findings.map((f) => [f.rule, f.detail?.count])).toEqual([
      ["duplicate-config-publish", 2],
      ["duplicate-config-publish", 2],
    ]);
  });
});

describe("config-not-retained", () => {
  it("passes retained configs and removals", () => {
    expect(rules([power(), removal("sensor", "power")])).toEqual([]);
  });

  it("reports a config or a removal published without retain", () => {
    expect(rules([config("sensor", "power", {}, false)])).toEqual(["config-not-retained"]);
    // The broker keeps the config the removal did not clear: it comes back at Home Assistant's next start.
    expect(allRules([power(), state({ power: 1 }), removal("sensor", "power", false)])).toEqual([
      "config-not-retained",
      "dangling-config",
    ]);
  });
});

describe("duplicate-unique-id (helpers/entity_platform.py)", () => {
  const elsewhere = (retain = true): RecordedMessage => ({
    ...power(),
    topic: `${PREFIX}/sensor/dev2/power/config`,
    retain,
  });

  it("passes when the first topic was removed before", () => {
    expect(rules([power(), removal("sensor", "power"), elsewhere(), state({ power: 1 })])).toEqual([]);
  });

  it("reports a unique_id configured on a second topic", () => {
    expect(rules([power(), elsewhere(), state({ power: 1 })])).toEqual(["duplicate-unique-id"]);
  });
});

describe("dangling-config", () => {
  it("passes when every retained config's key is in the retained state and its device lives", () => {
    const result = replayHomeAssistant([power(), state({ power: 1 })], { ...OPTIONS, isLive: () => true });
    expect(result.findings).toEqual([]);
    expect(result.entityCount).toBe(1);
    expect(result.neverValued).toEqual([]);
  });

  it("reports a config whose key never arrives, and one whose device is gone", () => {
    expect(allRules([power(), state({ power: 1 }), config("sensor", "voltage")])).toEqual([
      "template-undefined",
      "dangling-config",
    ]);
    expect(allRules([power(), state({ power: 1 })], { ...OPTIONS, isLive: () => false })).toEqual(["dangling-config"]);
    expect(allRules([power()])).toEqual(["dangling-config"]);
    expect(allRules([power(), state({ power: 1 }), removal("sensor", "power")])).toEqual([]);
  });

  it("lists entities that never had a value", () => {
    const result = replayHomeAssistant([power(), state({ power: null })], OPTIONS);
    expect(result.neverValued).toEqual([configTopic("sensor", "power")]);
  });
});

describe("what Home Assistant refuses to read", () => {
  it("reports an unparsable config and an illegal discovery topic", () => {
    expect(rules([{ topic: configTopic("sensor", "x"), payload: "{nope", retain: true }])).toEqual([
      "config-unparsable",
    ]);
    expect(rules([{ topic: `${PREFIX}/sensor/dev 1/x/config`, payload: "{}", retain: true }])).toEqual([
      "discovery-topic-illegal",
    ]);
  });
});
