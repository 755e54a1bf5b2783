import type { DiscoveryMessage, Origin, RemovalMessage } from "./discovery.js";
import { slug } from "./entities/index.js";
import type { Topics } from "./topics.js";

/**
 * Home Assistant discovery for the tariff rules: one device, "energy2mqtt rules", holding a
 * switch and a button per rule and the tariff sensors. One device rather than one per rule:
 * a rule is not hardware, the rules are read together (the device page lists every switch
 * next to the prices they act on), and a device per rule would leave a trail of empty devices
 * each time rules.yaml is edited.
 */

/** The device's place in topics: `<base>/rules`, `<base>/rules/set/<key>`, `<base>/rules/result`. */
export const RULES_DEVICE = "rules";

export const SENSOR_KEYS = [
  "import_price",
  "export_price",
  "next_cheap_window_start",
  "next_cheap_window_end",
  "today_cost",
  "saved_yesterday_vs_no_battery",
  "saved_yesterday_vs_eco_only",
  "saved_month_vs_no_battery",
  "saved_month_vs_eco_only",
] as const;

/** Entity keys: the prefixes keep a switch and a button apart whatever the rules are named. */
export const switchKey = (rule: string): string => `enabled_${rule}`;
export const buttonKey = (rule: string): string => `run_${rule}`;

export interface RulesTopics {
  readonly state: string;
  readonly availability: string;
  /** "online" once grid counters have been seen: today's cost means nothing before. */
  readonly costAvailability: string;
  readonly result: string;
  readonly event: string;
  /** `<base>/rules/set/`: followed by an entity key. */
  readonly commandPrefix: string;
  /** Our own retained switch and button configs, read back to find rules removed while we were down. */
  readonly discoveryWildcards: readonly string[];
}

/** Discovery node and device identifier; from the base topic so that two daemons do not collide. */
export const rulesNode = (topics: Topics): string => `${slug(topics.base) || "energy2mqtt"}_rules`;

export function rulesTopics(topics: Topics): RulesTopics {
  const node = rulesNode(topics);
  return {
    state: topics.deviceState(RULES_DEVICE),
    availability: topics.availability(RULES_DEVICE),
    costAvailability: `${topics.base}/${RULES_DEVICE}/cost/availability`,
    result: topics.result(RULES_DEVICE),
    event: `${topics.base}/${RULES_DEVICE}/event`,
    commandPrefix: `${topics.base}/${RULES_DEVICE}/set/`,
    discoveryWildcards: [topics.discovery("switch", node, "+"), topics.discovery("button", node, "+")],
  };
}

export interface RulesDiscoveryOptions {
  readonly topics: Topics;
  readonly origin: Origin;
  /** ISO 4217, from the rules' tariffs. */
  readonly currency: string;
}

/** Jinja for a key of the state JSON: bracketed, since rule names may hold "-". */
const field = (key: string): string => `value_json['${key}']`;

/** The key's value, or none (unknown, without a template warning) should it be missing. */
const keyTemplate = (key: string): string => `{{ ${field(key)} | default(none) }}`;

function common(options: RulesDiscoveryOptions) {
  const { topics, origin } = options;
  const node = rulesNode(topics);
  const own = rulesTopics(topics);
  const availability = [
    {
      topic: topics.bridgeState,
      value_template: "{{ value_json.state }}",
      payload_available: "online",
      payload_not_available: "offline",
    },
    { topic: own.availability, payload_available: "online", payload_not_available: "offline" },
  ];
  const device = {
    identifiers: [node],
    name: "energy2mqtt rules",
    manufacturer: "energy2mqtt",
    model: "Tariff rules",
    sw_version: origin.sw_version,
  };
  return {
    node,
    own,
    tail: (extraAvailability: readonly Record<string, string>[] = []) => ({
      availability: [...availability, ...extraAvailability],
      availability_mode: "all",
      device,
      origin: { name: origin.name, sw_version: origin.sw_version, support_url: origin.support_url },
    }),
  };
}

function ruleMessages(rule: string, options: RulesDiscoveryOptions): DiscoveryMessage[] {
  const { topics } = options;
  const { node, own, tail } = common(options);
  const enabled = switchKey(rule);
  const run = buttonKey(rule);
  return [
    {
      topic: topics.discovery("switch", node, enabled),
      payload: {
        name: rule,
        unique_id: `${node}_${enabled}`,
        default_entity_id: `switch.${node}_${slug(rule)}`,
        icon: "mdi:script-text-outline",
        state_topic: own.state,
        value_template: keyTemplate(enabled),
        json_attributes_topic: own.state,
        json_attributes_template: `{{ value_json.rules['${rule}'] | tojson }}`,
        command_topic: `${own.commandPrefix}${enabled}`,
        payload_on: "ON",
        payload_off: "OFF",
        state_on: "ON",
        state_off: "OFF",
        ...tail(),
      },
    },
    {
      topic: topics.discovery("button", node, run),
      payload: {
        name: `Run ${rule}`,
        unique_id: `${node}_${run}`,
        default_entity_id: `button.${node}_run_${slug(rule)}`,
        icon: "mdi:play-circle-outline",
        command_topic: `${own.commandPrefix}${run}`,
        payload_press: "PRESS",
        ...tail(),
      },
    },
  ];
}

function sensorMessages(options: RulesDiscoveryOptions): DiscoveryMessage[] {
  const { topics, currency } = options;
  const { node, own, tail } = common(options);
  const sensor = (
    key: (typeof SENSOR_KEYS)[number],
    name: string,
    fields: Record<string, unknown>,
    extraAvailability: Record<string, string>[] = [],
  ): DiscoveryMessage => ({
    topic: topics.discovery("sensor", node, key),
    payload: {
      name,
      unique_id: `${node}_${key}`,
      default_entity_id: `sensor.${node}_${key}`,
      ...fields,
      ...tail(extraAvailability),
    },
  });
  // A price per kWh is not "monetary" (that class is for amounts, state class total): no
  // device class, and a unit such as GBP/kWh is what the Energy dashboard's price entity wants.
  const price = (key: "import_price" | "export_price", name: string) =>
    sensor(key, name, {
      unit_of_measurement: `${currency}/kWh`,
      state_class: "measurement",
      icon: key === "import_price" ? "mdi:cash-minus" : "mdi:cash-plus",
      suggested_display_precision: 4,
      state_topic: own.state,
      value_template: keyTemplate(key),
    });
  return [
    price("import_price", "Import price"),
    price("export_price", "Export price"),
    sensor("next_cheap_window_start", "Next cheap window", {
      device_class: "timestamp",
      icon: "mdi:clock-start",
      state_topic: own.state,
      value_template: keyTemplate("next_cheap_window_start"),
      json_attributes_topic: own.state,
      json_attributes_template:
        "{{ {'end': value_json.next_cheap_window_end, 'price': value_json.next_cheap_window_price} | tojson }}",
    }),
    sensor("next_cheap_window_end", "Next cheap window end", {
      device_class: "timestamp",
      icon: "mdi:clock-end",
      state_topic: own.state,
      value_template: keyTemplate("next_cheap_window_end"),
    }),
    sensor(
      "today_cost",
      "Today's cost",
      {
        device_class: "monetary",
        unit_of_measurement: currency,
        state_class: "total",
        suggested_display_precision: 2,
        state_topic: own.state,
        value_template: keyTemplate("today_cost"),
        // Unset, it renders empty, which Home Assistant ignores; "None" would be an invalid last_reset.
        last_reset_value_template: `{{ ${field("today_cost_last_reset")} | default('', true) }}`,
      },
      [{ topic: own.costAvailability, payload_available: "online", payload_not_available: "offline" }],
    ),
    // Amounts over a period that starts again (yesterday, the month): monetary, total, and the
    // period's start as last_reset, so that the statistics take each period on its own.
    ...(
      [
        ["saved_yesterday_vs_no_battery", "Saved yesterday vs no battery", "saved_yesterday"],
        ["saved_yesterday_vs_eco_only", "Saved yesterday vs eco only", "saved_yesterday"],
        ["saved_month_vs_no_battery", "Saved this month vs no battery", "saved_month"],
        ["saved_month_vs_eco_only", "Saved this month vs eco only", "saved_month"],
      ] as const
    ).map(([key, name, period]) =>
      sensor(key, name, {
        device_class: "monetary",
        unit_of_measurement: currency,
        state_class: "total",
        icon: "mdi:piggy-bank-outline",
        suggested_display_precision: 2,
        state_topic: own.state,
        value_template: keyTemplate(key),
        last_reset_value_template: `{{ ${field(`${period}_last_reset`)} | default('', true) }}`,
        // Whether the figure rests on published prices, the tariff's fallback, or leaves half-hours out.
        json_attributes_topic: own.state,
        json_attributes_template: `{{ {${(["prices", "estimated_half_hours", "unpriced_half_hours"] as const).map((name) => `'${name}': value_json.${period}_${name}`).join(", ")}} | tojson }}`,
      }),
    ),
  ];
}

/** Retained configs: the tariff sensors, then a switch and a button per rule. */
export function rulesDiscoveryMessages(rules: readonly string[], options: RulesDiscoveryOptions): DiscoveryMessage[] {
  return [...sensorMessages(options), ...rules.flatMap((rule) => ruleMessages(rule, options))];
}

/** Empty retained configs for the switch and button of each rule that went away. */
export function rulesRemovalMessages(gone: readonly string[], topics: Topics): RemovalMessage[] {
  const node = rulesNode(topics);
  return gone.flatMap((rule) => [
    { topic: topics.discovery("switch", node, switchKey(rule)), payload: "" as const },
    { topic: topics.discovery("button", node, buttonKey(rule)), payload: "" as const },
  ]);
}

/** The rule a retained switch or button config of ours is for, if the topic is one. */
export function ruleOfDiscoveryTopic(topic: string, topics: Topics): string | undefined {
  const node = rulesNode(topics);
  for (const [component, marker] of [
    ["switch", switchKey("")],
    ["button", buttonKey("")],
  ] as const) {
    const head = `${topics.discoveryPrefix}/${component}/${node}/${marker}`;
    if (!topic.startsWith(head) || !topic.endsWith("/config")) continue;
    const rule = topic.slice(head.length, -"/config".length);
    if (rule !== "" && !rule.includes("/")) return rule;
  }
  return undefined;
}
