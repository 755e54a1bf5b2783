import { type DiscoveryTopic, discoveryConfigSchema, entityOf, expandConfig, parseDiscoveryTopic } from "./config.js";
import { configWarnings, rejections } from "./rules/config-rules.js";
import {
  configNotRetained,
  danglingConfig,
  duplicateConfigPublish,
  duplicateUniqueId,
  illegalDiscoveryTopic,
  staleRetainedConfig,
  unparsableConfig,
} from "./rules/lifecycle-rules.js";
import {
  binarySensorState,
  lastResetState,
  missingKeyHits,
  numberState,
  selectState,
  sensorState,
  switchState,
  templateHits,
  timeState,
  totalIncreasingDecrease,
} from "./rules/state-rules.js";
import { parseTemplate, renderTemplate } from "./template.js";
import type { CheckOptions, DiscoveredEntity, Finding, RecordedMessage, RuleHit } from "./types.js";

export interface ReplayResult {
  readonly findings: readonly Finding[];
  /** Config topics of entities configured at the end that never received a value (always unknown). */
  readonly neverValued: readonly string[];
  /** Entities configured at the end. */
  readonly entityCount: number;
  /** Config topics of entities Home Assistant shows as unavailable at the end. */
  readonly unavailable: readonly string[];
}

/** Who a finding is about. */
type EntityRef = Pick<DiscoveredEntity, "configTopic" | "uniqueId" | "key">;

interface Published {
  readonly payload: string;
  readonly epoch: number;
  readonly count: number;
}

/**
 * Replays what a Home Assistant subscribed to the broker would do with these messages, in order:
 * discovery configs create, update and remove entities (a new subscription receives the retained
 * message of its topic at once), every message on a state topic goes through the value_template
 * and the platform's rules of each entity configured on it. Returns what Home Assistant would log.
 */
export function replayHomeAssistant(messages: readonly RecordedMessage[], options: CheckOptions): ReplayResult {
  const replay = new Replay(options);
  for (const message of messages) replay.message(message);
  return replay.finish();
}

/** The findings of {@link replayHomeAssistant}: empty means Home Assistant's log stays quiet. */
export function checkHomeAssistantRules(messages: readonly RecordedMessage[], options: CheckOptions): Finding[] {
  return [...replayHomeAssistant(messages, options).findings];
}

class Replay {
  private readonly statusTopic: string;
  /** What the broker holds retained, by topic. */
  private readonly retained = new Map<string, string>();
  /** Entities Home Assistant holds, by config topic, with the payload they came from. */
  private readonly entities = new Map<string, { entity: DiscoveredEntity; payload: string }>();
  private readonly uniqueIds = new Map<string, string>();
  private readonly published = new Map<string, Published>();
  private readonly totals = new Map<string, { value: number; at: number | undefined }>();
  private readonly valued = new Set<string>();
  /** Each entity's availability by topic, as MqttAvailabilityMixin._available holds it. */
  private readonly availableBy = new Map<string, Map<string, boolean>>();
  /** Whether the entity's last availability message said available (availability_mode "latest"). */
  private readonly availableLatest = new Map<string, boolean>();
  /** Config payloads Home Assistant refused (already reported), by topic. */
  private readonly refused = new Map<string, string>();
  private readonly findings: Finding[] = [];
  /** Birth messages seen so far. */
  private epoch = 0;

  constructor(private readonly options: CheckOptions) {
    this.statusTopic = options.statusTopic ?? `${options.discoveryPrefix}/status`;
  }

  message(message: RecordedMessage): void {
    if (message.topic === this.statusTopic) {
      if (message.payload.trim() === "online") this.epoch += 1;
    } else {
      const discovery = parseDiscoveryTopic(message.topic, this.options.discoveryPrefix);
      if (discovery === "illegal") this.report(illegalDiscoveryTopic(message.topic), message, undefined);
      else if (discovery) this.config(message, discovery);
      else this.state(message);
    }
    if (message.retain) {
      if (message.payload === "") this.retained.delete(message.topic);
      else this.retained.set(message.topic, message.payload);
    }
  }

  finish(): ReplayResult {
    const prefix = this.options.discoveryPrefix;
    for (const [topic, payload] of this.retained) {
      const discovery = parseDiscoveryTopic(topic, prefix);
      if (!discovery || discovery === "illegal") continue;
      const message = { topic, payload, retain: true };
      const held = this.entities.get(topic);
      if (this.refused.get(topic) === payload) continue;
      if (!held || held.payload !== payload) {
        // Home Assistant dropped or changed it, the broker did not: the next start brings it back.
        this.report(staleRetainedConfig(), message, held?.entity);
        continue;
      }
      const { entity } = held;
      const live = this.options.isLive?.(entity) ?? true;
      const state = entity.stateTopic === undefined ? undefined : this.retained.get(entity.stateTopic);
      this.report(danglingConfig(entity, live, state), message, entity);
    }
    const neverValued = [...this.entities.values()]
      .filter(({ entity }) => entity.stateTopic !== undefined && !this.valued.has(entity.configTopic))
      .map(({ entity }) => entity.configTopic);
    const unavailable = [...this.entities.values()]
      .filter(({ entity }) => !this.isAvailable(entity))
      .map(({ entity }) => entity.configTopic);
    return { findings: this.findings, neverValued, entityCount: this.entities.size, unavailable };
  }

  /** MqttAvailabilityMixin.available, with the broker connected. */
  private isAvailable(entity: DiscoveredEntity): boolean {
    if (entity.availability.length === 0) return true;
    const byTopic = [...(this.availableBy.get(entity.configTopic)?.values() ?? [])];
    if (entity.availabilityMode === "all") return byTopic.length > 0 && byTopic.every(Boolean);
    if (entity.availabilityMode === "any") return byTopic.some(Boolean);
    return this.availableLatest.get(entity.configTopic) ?? false;
  }

  private report(hits: readonly RuleHit[], message: RecordedMessage, entity: EntityRef | undefined): void {
    for (const hit of hits) {
      this.findings.push({
        rule: hit.rule,
        topic: message.topic,
        uniqueId: entity?.uniqueId ?? "",
        configTopic: entity?.configTopic ?? message.topic,
        ...(entity?.key === undefined ? {} : { key: entity.key }),
        message: hit.message,
        reference: hit.reference,
        ...(message.at === undefined ? {} : { at: message.at }),
        ...(hit.detail === undefined ? {} : { detail: hit.detail }),
      });
    }
  }

  private config(message: RecordedMessage, topic: DiscoveryTopic): void {
    const { payload } = message;
    if (!message.retain) this.report(configNotRetained(payload), message, this.entities.get(message.topic)?.entity);
    this.countPublish(message);
    if (payload === "") {
      this.remove(message.topic);
      return;
    }
    const held = this.entities.get(message.topic);
    if (held?.payload === payload) return; // "Ignoring unchanged update"
    let raw: unknown;
    try {
      raw = JSON.parse(payload);
    } catch {
      raw = undefined;
    }
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      this.refuse(message, unparsableConfig(payload), undefined);
      return;
    }
    const expanded = expandConfig(raw as Record<string, unknown>);
    const parsed = discoveryConfigSchema.safeParse(expanded);
    const uniqueId = typeof expanded.unique_id === "string" ? expanded.unique_id : "";
    const asEntity: EntityRef = { configTopic: message.topic, uniqueId };
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
      this.refuse(
        message,
        [
          {
            rule: "config-invalid",
            message: problems,
            reference: `homeassistant/components/mqtt/${topic.component}.py DISCOVERY_SCHEMA`,
          },
        ],
        asEntity,
      );
      return;
    }
    const refused = rejections(topic.component, parsed.data);
    if (refused.length > 0) {
      this.refuse(message, refused, asEntity);
      return;
    }
    const other = uniqueId === "" ? undefined : this.uniqueIds.get(uniqueId);
    if (other !== undefined && other !== message.topic) {
      this.refuse(message, duplicateUniqueId(uniqueId, other), asEntity);
      return;
    }
    const entity = entityOf(message.topic, topic, parsed.data);
    this.report(configWarnings(topic.component, parsed.data), message, entity);
    if (held && held.entity.uniqueId !== uniqueId) this.uniqueIds.delete(held.entity.uniqueId);
    this.entities.set(message.topic, { entity, payload });
    // A topic kept from the old config keeps what it said; a new one starts unavailable.
    const known = this.availableBy.get(message.topic);
    this.availableBy.set(
      message.topic,
      new Map(entity.availability.map(({ topic }) => [topic, known?.get(topic) ?? false])),
    );
    if (uniqueId !== "") this.uniqueIds.set(uniqueId, message.topic);
    // A topic the entity did not subscribe to before delivers its retained message at once.
    const before = new Set(held ? subscribedTopics(held.entity) : []);
    for (const subscribed of new Set(subscribedTopics(entity))) {
      const retained = this.retained.get(subscribed);
      if (before.has(subscribed) || retained === undefined) continue;
      this.deliver(entity, { topic: subscribed, payload: retained, retain: true, ...atOf(message) });
    }
  }

  /** Home Assistant logs the problem and creates nothing (an entity it held keeps its old config). */
  private refuse(message: RecordedMessage, hits: readonly RuleHit[], entity: EntityRef | undefined): void {
    this.refused.set(message.topic, message.payload);
    this.report(hits, message, entity);
  }

  private countPublish(message: RecordedMessage): void {
    const last = this.published.get(message.topic);
    const repeated = last !== undefined && last.payload === message.payload && last.epoch === this.epoch;
    const count = repeated ? last.count + 1 : 1;
    this.published.set(message.topic, { payload: message.payload, epoch: this.epoch, count });
    if (repeated) this.report(duplicateConfigPublish(count), message, this.entities.get(message.topic)?.entity);
  }

  private remove(configTopic: string): void {
    const held = this.entities.get(configTopic);
    if (!held) return;
    this.entities.delete(configTopic);
    this.availableBy.delete(configTopic);
    this.availableLatest.delete(configTopic);
    if (this.uniqueIds.get(held.entity.uniqueId) === configTopic) this.uniqueIds.delete(held.entity.uniqueId);
    this.totals.delete(configTopic);
  }

  private state(message: RecordedMessage): void {
    for (const { entity } of this.entities.values()) this.deliver(entity, message);
  }

  /** One message to one entity, on whichever of its topics it arrived. */
  private deliver(entity: DiscoveredEntity, message: RecordedMessage): void {
    if (entity.stateTopic === message.topic) this.stateMessage(entity, message);
    if (entity.jsonAttributesTopic === message.topic && entity.jsonAttributesTemplate !== undefined) {
      this.report(renderHits(entity.jsonAttributesTemplate, message.payload).hits, message, entity);
    }
    for (const availability of entity.availability) {
      if (availability.topic !== message.topic) continue;
      let payload = message.payload;
      if (availability.valueTemplate !== undefined) {
        const rendered = renderHits(availability.valueTemplate, message.payload);
        this.report(rendered.hits, message, entity);
        payload = rendered.text;
      }
      // A payload that is neither leaves the entity as it was.
      const said =
        payload === availability.payloadAvailable
          ? true
          : payload === availability.payloadNotAvailable
            ? false
            : undefined;
      if (said === undefined) continue;
      this.availableBy.get(entity.configTopic)?.set(availability.topic, said);
      this.availableLatest.set(entity.configTopic, said);
    }
  }

  private stateMessage(entity: DiscoveredEntity, message: RecordedMessage): void {
    const rendered =
      entity.valueTemplate === undefined
        ? { text: message.payload, hits: [], failed: false }
        : renderHits(entity.valueTemplate, message.payload, true);
    this.report(rendered.hits, message, entity);
    if (rendered.failed) return;
    const text = rendered.text;
    if (text !== "" && text !== "None") this.valued.add(entity.configTopic);
    switch (entity.component) {
      case "sensor": {
        const result = sensorState(entity, text);
        this.report(result.hits, message, entity);
        if (result.value !== undefined && entity.config.state_class === "total_increasing") {
          this.total(entity, result.value, message);
        }
        if (entity.lastResetValueTemplate !== undefined) {
          const reset = renderHits(entity.lastResetValueTemplate, message.payload, true);
          this.report(reset.hits, message, entity);
          if (!reset.failed) this.report(lastResetState(reset.text), message, entity);
        }
        return;
      }
      case "number":
        this.report(numberState(entity, text), message, entity);
        return;
      case "select":
        this.report(selectState(entity, text), message, entity);
        return;
      case "switch":
        this.report(switchState(entity, text), message, entity);
        return;
      case "binary_sensor":
        this.report(binarySensorState(entity, text), message, entity);
        return;
      case "time":
        this.report(timeState(text), message, entity);
        return;
      default:
        return;
    }
  }

  private total(entity: DiscoveredEntity, value: number, message: RecordedMessage): void {
    const previous = this.totals.get(entity.configTopic);
    this.totals.set(entity.configTopic, { value, at: message.at });
    if (!previous) return;
    const hits = totalIncreasingDecrease(previous.value, value).map((hit) => ({
      ...hit,
      detail: { ...hit.detail, previousAt: previous.at },
    }));
    this.report(hits, message, entity);
  }
}

function atOf(message: RecordedMessage): { at?: number } {
  return message.at === undefined ? {} : { at: message.at };
}

function subscribedTopics(entity: DiscoveredEntity): string[] {
  return [
    ...(entity.stateTopic === undefined ? [] : [entity.stateTopic]),
    ...(entity.jsonAttributesTopic === undefined ? [] : [entity.jsonAttributesTopic]),
    ...entity.availability.map((availability) => availability.topic),
  ];
}

/**
 * Renders a template (unsupported ones were reported with the config) and what its rendering
 * logs; a value template must also find its keys in the state, default or not.
 */
function renderHits(
  template: string,
  payload: string,
  isValueTemplate = false,
): { text: string; hits: RuleHit[]; failed: boolean } {
  const parsed = parseTemplate(template);
  if (!("expr" in parsed)) return { text: "", hits: [], failed: true };
  const rendered = renderTemplate(parsed, payload);
  const hits = [...templateHits(rendered, template), ...(isValueTemplate ? missingKeyHits(rendered, template) : [])];
  return { text: rendered.text, hits, failed: rendered.errors.length > 0 };
}
