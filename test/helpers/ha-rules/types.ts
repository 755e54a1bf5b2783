/** One MQTT message as a subscriber saw it, in the order it arrived. */
export interface RecordedMessage {
  readonly topic: string;
  readonly payload: string;
  /** As published (an MQTT v5 subscription with retain-as-published), not as forwarded. */
  readonly retain: boolean;
  /** Wall-clock ms when it arrived; only used to place findings in time. */
  readonly at?: number;
}

/** Something Home Assistant would log (or silently drop) on seeing these messages. */
export interface Finding {
  /** Stable id of the rule, e.g. "template-undefined". */
  readonly rule: string;
  /** The topic of the message that triggered it (a state topic or a config topic). */
  readonly topic: string;
  /** The entity's unique_id, "" where there is none (an unparsable config). */
  readonly uniqueId: string;
  /** The discovery config topic of the entity concerned. */
  readonly configTopic: string;
  /** The state key the entity's value_template reads, where it reads one. */
  readonly key?: string;
  /** What Home Assistant says or does, in words. */
  readonly message: string;
  /** Where Home Assistant's code does it: file and function. */
  readonly reference: string;
  readonly at?: number;
  readonly detail?: Readonly<Record<string, unknown>>;
}

/** An availability entry of a config, normalised. */
export interface AvailabilityEntry {
  readonly topic: string;
  readonly valueTemplate?: string;
  /** Home Assistant's defaults: "online" and "offline". */
  readonly payloadAvailable: string;
  readonly payloadNotAvailable: string;
}

/** A discovery config as Home Assistant holds it after validation. */
export interface DiscoveredEntity {
  readonly configTopic: string;
  readonly component: string;
  /** The `<node_id>` part of the discovery topic, "" when the topic has none. */
  readonly nodeId: string;
  readonly objectId: string;
  readonly uniqueId: string;
  readonly config: Readonly<Record<string, unknown>>;
  readonly stateTopic?: string;
  readonly valueTemplate?: string;
  readonly lastResetValueTemplate?: string;
  readonly jsonAttributesTopic?: string;
  readonly jsonAttributesTemplate?: string;
  readonly availability: readonly AvailabilityEntry[];
  /** How the entries combine (homeassistant/components/mqtt/entity.py MqttAvailabilityMixin.available). */
  readonly availabilityMode: "all" | "any" | "latest";
  /** The last name of the state path the value_template reads (`value_json.a.b` → "b"). */
  readonly key?: string;
}

export interface CheckOptions {
  readonly discoveryPrefix: string;
  /** Home Assistant's birth topic; defaults to `<prefix>/status`. */
  readonly statusTopic?: string;
  /**
   * Whether the device behind a config still exists at the end (for the dangling-config rule).
   * Without it only "its key is in the device's retained state" is checked.
   */
  readonly isLive?: (entity: DiscoveredEntity) => boolean;
}

/** What a rule reports, before the checker adds where and who. */
export interface RuleHit {
  readonly rule: string;
  readonly message: string;
  readonly reference: string;
  readonly detail?: Readonly<Record<string, unknown>>;
}
