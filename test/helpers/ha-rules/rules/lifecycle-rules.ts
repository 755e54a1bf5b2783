import { keysRead, parseTemplate } from "../template.js";
import type { DiscoveredEntity, RuleHit } from "../types.js";

/** Rules on how configs come and go over time, rather than on one message. */

const DISCOVERY = "homeassistant/components/mqtt/discovery.py async_discovery_message_received";

/** mqtt/discovery.py: a topic under the prefix ending in config that TOPIC_MATCHER refuses. */
export function illegalDiscoveryTopic(topic: string): RuleHit[] {
  return [
    {
      rule: "discovery-topic-illegal",
      message: `Received message on illegal discovery topic '${topic}'`,
      reference: DISCOVERY,
    },
  ];
}

/** mqtt/discovery.py: the payload must be a JSON object ("Unable to parse JSON"). */
export function unparsableConfig(payload: string): RuleHit[] {
  return [
    { rule: "config-unparsable", message: `Unable to parse JSON: '${payload.slice(0, 80)}'`, reference: DISCOVERY },
  ];
}

/**
 * mqtt/discovery.py subscribes to `<prefix>/#` at every start: only what is retained on the
 * broker survives a Home Assistant restart, and an empty payload that is not retained leaves the
 * old retained config in place, to come back at the next restart.
 */
export function configNotRetained(payload: string): RuleHit[] {
  return [
    {
      rule: "config-not-retained",
      message:
        payload === ""
          ? "removal published without retain: the retained config stays on the broker and the entity returns at Home Assistant's next start"
          : "config published without retain: the entity is gone after Home Assistant's next start",
      reference:
        "homeassistant/components/mqtt/discovery.py async_start (subscribes <prefix>/# and reads retained configs)",
    },
  ];
}

/**
 * The same config payload published again with no birth message in between: Home Assistant
 * handles it for nothing (mqtt/entity.py MqttDiscoveryUpdateMixin, discovery_callback: "Ignoring
 * unchanged update for: ..."). A birth message (`online` on the status topic) is when
 * re-publishing everything is expected.
 */
export function duplicateConfigPublish(count: number): RuleHit[] {
  return [
    {
      rule: "duplicate-config-publish",
      message: `the same config payload published again (${count} times since the last birth message): Home Assistant ignores the unchanged update`,
      reference: "homeassistant/components/mqtt/entity.py MqttDiscoveryUpdateMixin (discovery_callback)",
      detail: { count },
    },
  ];
}

/** helpers/entity_platform.py EntityPlatform._async_add_entity: "Platform mqtt does not generate unique IDs. ID ... already exists - ignoring". */
export function duplicateUniqueId(uniqueId: string, otherTopic: string): RuleHit[] {
  return [
    {
      rule: "duplicate-unique-id",
      message: `Platform mqtt does not generate unique IDs. ID ${uniqueId} already exists (configured on ${otherTopic}) - ignoring`,
      reference: "homeassistant/helpers/entity_platform.py EntityPlatform._async_add_entity",
    },
  ];
}

/** A retained config other than the one Home Assistant holds (removed or changed without retain). */
export function staleRetainedConfig(): RuleHit[] {
  return [
    {
      rule: "dangling-config",
      message:
        "the broker retains a config Home Assistant no longer holds (a removal or change was not retained): it returns at the next start",
      reference: "homeassistant/components/mqtt/discovery.py async_start (retained configs re-create entities)",
    },
  ];
}

/**
 * A config retained at the end that Home Assistant would re-create at its next start: its device
 * is gone, or the state it reads never carries its key (an entity that would log a template
 * warning on every state message, and show nothing).
 */
export function danglingConfig(entity: DiscoveredEntity, live: boolean, retainedState: string | undefined): RuleHit[] {
  const reference = "homeassistant/components/mqtt/discovery.py async_start (retained configs re-create entities)";
  if (!live) {
    return [{ rule: "dangling-config", message: "retained config of a device that no longer exists", reference }];
  }
  if (entity.stateTopic === undefined || entity.valueTemplate === undefined) return [];
  const parsed = parseTemplate(entity.valueTemplate);
  if (!("expr" in parsed) || parsed.expr.kind !== "path" || parsed.expr.root !== "value_json") return [];
  if (retainedState === undefined) {
    return [
      { rule: "dangling-config", message: `nothing is retained on its state topic ${entity.stateTopic}`, reference },
    ];
  }
  let state: unknown;
  try {
    state = JSON.parse(retainedState);
  } catch {
    return [{ rule: "dangling-config", message: `the retained state on ${entity.stateTopic} is not JSON`, reference }];
  }
  let current: unknown = state;
  for (const segment of parsed.expr.segments) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, segment.name)) {
      return [
        {
          rule: "dangling-config",
          message: `the retained state on ${entity.stateTopic} has no '${keysRead(parsed).join(".")}'`,
          reference,
        },
      ];
    }
    current = (current as Record<string, unknown>)[segment.name];
  }
  return [];
}
