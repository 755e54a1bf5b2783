import { z } from "zod";
import { keysRead, parseTemplate } from "./template.js";
import type { AvailabilityEntry, DiscoveredEntity } from "./types.js";

/**
 * Reading a discovery config the way homeassistant/components/mqtt/discovery.py does
 * (async_discovery_message_received): the topic must match TOPIC_MATCHER, the payload is a JSON
 * object whose abbreviated keys are expanded (mqtt/abbreviations.py) and whose `~` is put back
 * into the topics; then the platform's DISCOVERY_SCHEMA validates it.
 */

const TOPIC_MATCHER = /^(\w+)\/(?:([a-zA-Z0-9_-]+)\/)?([a-zA-Z0-9_-]+)\/config$/;

export interface DiscoveryTopic {
  readonly component: string;
  readonly nodeId: string;
  readonly objectId: string;
}

/**
 * The parts of a discovery config topic; "illegal" for a topic under the prefix that ends in
 * config but does not match (Home Assistant warns "Received message on illegal discovery topic").
 */
export function parseDiscoveryTopic(topic: string, prefix: string): DiscoveryTopic | "illegal" | undefined {
  if (!topic.startsWith(`${prefix}/`) || !topic.endsWith("/config")) return undefined;
  const match = TOPIC_MATCHER.exec(topic.slice(prefix.length + 1));
  if (!match?.[1] || !match[3]) return "illegal";
  return { component: match[1], nodeId: match[2] ?? "", objectId: match[3] };
}

/** The abbreviations of mqtt/abbreviations.py that entity configs of this kind can use. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  avty: "availability",
  avty_mode: "availability_mode",
  avty_t: "availability_topic",
  avty_tpl: "availability_template",
  cmd_t: "command_topic",
  cmd_tpl: "command_template",
  dev: "device",
  dev_cla: "device_class",
  ent_cat: "entity_category",
  json_attr_t: "json_attributes_topic",
  json_attr_tpl: "json_attributes_template",
  lrst_val_tpl: "last_reset_value_template",
  o: "origin",
  ops: "options",
  pl_avail: "payload_available",
  pl_not_avail: "payload_not_available",
  pl_off: "payload_off",
  pl_on: "payload_on",
  pl_prs: "payload_press",
  pl_rst: "payload_reset",
  stat_cla: "state_class",
  stat_off: "state_off",
  stat_on: "state_on",
  stat_t: "state_topic",
  sug_dsp_prc: "suggested_display_precision",
  uniq_id: "unique_id",
  unit_of_meas: "unit_of_measurement",
  val_tpl: "value_template",
};

const AVAILABILITY_ABBREVIATIONS: Readonly<Record<string, string>> = {
  t: "topic",
  val_tpl: "value_template",
  pl_avail: "payload_available",
  pl_not_avail: "payload_not_available",
};

function expandKeys(raw: Readonly<Record<string, unknown>>, table: Readonly<Record<string, string>>) {
  return Object.fromEntries(Object.entries(raw).map(([key, value]) => [table[key] ?? key, value]));
}

function withBase(value: unknown, base: unknown): unknown {
  if (typeof value !== "string" || typeof base !== "string") return value;
  if (value.startsWith("~")) return `${base}${value.slice(1)}`;
  if (value.endsWith("~")) return `${value.slice(0, -1)}${base}`;
  return value;
}

/** Abbreviations expanded and `~` replaced, as discovery.py does before validation. */
export function expandConfig(raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const config = expandKeys(raw, ABBREVIATIONS);
  const base = config["~"];
  for (const key of Object.keys(config)) {
    if (key.endsWith("_topic")) config[key] = withBase(config[key], base);
  }
  if (Array.isArray(config.availability)) {
    config.availability = config.availability.map((entry: unknown) => {
      if (entry === null || typeof entry !== "object") return entry;
      const expanded = expandKeys(entry as Record<string, unknown>, AVAILABILITY_ABBREVIATIONS);
      return { ...expanded, topic: withBase(expanded.topic, base) };
    });
  }
  return config;
}

/** The fields the rules read, with the types the platform schemas accept (cv.string, vol.Coerce(float), ...). */
export const discoveryConfigSchema = z.looseObject({
  unique_id: z.string().optional(),
  state_topic: z.string().optional(),
  value_template: z.string().optional(),
  last_reset_value_template: z.string().optional(),
  json_attributes_topic: z.string().optional(),
  json_attributes_template: z.string().optional(),
  availability: z
    .array(
      z.looseObject({
        topic: z.string(),
        value_template: z.string().optional(),
        payload_available: z.string().default("online"),
        payload_not_available: z.string().default("offline"),
      }),
    )
    .optional(),
  availability_topic: z.string().optional(),
  availability_template: z.string().optional(),
  availability_mode: z.enum(["all", "any", "latest"]).default("latest"),
  payload_available: z.string().default("online"),
  payload_not_available: z.string().default("offline"),
  command_topic: z.string().optional(),
  device_class: z.string().nullable().optional(),
  unit_of_measurement: z.string().nullable().optional(),
  state_class: z.string().nullable().optional(),
  suggested_display_precision: z.number().int().min(0).optional(),
  options: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
  min: z.coerce.number().optional(),
  max: z.coerce.number().optional(),
  step: z.coerce.number().optional(),
  payload_on: z.string().optional(),
  payload_off: z.string().optional(),
  state_on: z.string().optional(),
  state_off: z.string().optional(),
  payload_reset: z.string().optional(),
});

export type DiscoveryConfig = z.output<typeof discoveryConfigSchema>;

function availabilityOf(config: DiscoveryConfig): AvailabilityEntry[] {
  const entries: AvailabilityEntry[] = (config.availability ?? []).map((entry) => ({
    topic: entry.topic,
    payloadAvailable: entry.payload_available,
    payloadNotAvailable: entry.payload_not_available,
    ...(entry.value_template === undefined ? {} : { valueTemplate: entry.value_template }),
  }));
  if (config.availability_topic !== undefined) {
    entries.push({
      topic: config.availability_topic,
      payloadAvailable: config.payload_available,
      payloadNotAvailable: config.payload_not_available,
      ...(config.availability_template === undefined ? {} : { valueTemplate: config.availability_template }),
    });
  }
  return entries;
}

/** The entity Home Assistant holds for a validated config. */
export function entityOf(configTopic: string, topic: DiscoveryTopic, config: DiscoveryConfig): DiscoveredEntity {
  const parsed = config.value_template === undefined ? undefined : parseTemplate(config.value_template);
  const key = parsed && "expr" in parsed ? keysRead(parsed)[0] : undefined;
  return {
    configTopic,
    component: topic.component,
    nodeId: topic.nodeId,
    objectId: topic.objectId,
    uniqueId: config.unique_id ?? "",
    config,
    availability: availabilityOf(config),
    availabilityMode: config.availability_mode,
    ...(config.state_topic === undefined ? {} : { stateTopic: config.state_topic }),
    ...(config.value_template === undefined ? {} : { valueTemplate: config.value_template }),
    ...(config.last_reset_value_template === undefined
      ? {}
      : { lastResetValueTemplate: config.last_reset_value_template }),
    ...(config.json_attributes_topic === undefined ? {} : { jsonAttributesTopic: config.json_attributes_topic }),
    ...(config.json_attributes_template === undefined
      ? {}
      : { jsonAttributesTemplate: config.json_attributes_template }),
    ...(key === undefined ? {} : { key }),
  };
}
