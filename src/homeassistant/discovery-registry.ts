import { createHash } from "node:crypto";
import type { DiscoveryMessage } from "./discovery.js";

type Send = (topic: string, payload: string, retain: boolean) => Promise<void>;

/**
 * The device discovery configs this bridge has published, so that each is sent once per real
 * change and a config that stops applying, for whatever reason, is removed (empty retained
 * payload) rather than left on the broker.
 *
 * Kept by discovery node (a device), each config as a short digest of its payload: a fleet of a
 * thousand inverters has some 200,000 configs, which in full would be tens of MB, and one
 * device's sync looks at its own configs only.
 */
export class DiscoveryRegistry {
  private readonly byNode = new Map<string, Map<string, string>>();

  constructor(private readonly send: Send) {}

  /** The config topics currently published. */
  get topics(): ReadonlySet<string> {
    const topics = new Set<string>();
    for (const configs of this.byNode.values()) for (const topic of configs.keys()) topics.add(topic);
    return topics;
  }

  /**
   * Makes the broker hold exactly `messages`: changed and new configs are sent, configs no
   * longer in the list are removed. `force` sends every config again (Home Assistant restarted,
   * or the broker lost its retained messages). With `group` (a device's discovery node), only
   * that device's configs are compared, so one device's change costs one device's configs.
   */
  async sync(
    messages: readonly DiscoveryMessage[],
    force = false,
    group?: string,
  ): Promise<{ sent: number; removed: number }> {
    const next = new Map(messages.map((message) => [message.topic, JSON.stringify(message.payload)]));
    const work: Promise<void>[] = [];
    let removed = 0;
    const candidates = group === undefined ? [...this.topics] : [...(this.byNode.get(group)?.keys() ?? [])];
    for (const topic of candidates) {
      if (next.has(topic)) continue;
      this.forget(topic);
      removed++;
      work.push(this.send(topic, "", true));
    }
    let sent = 0;
    for (const [topic, text] of next) {
      const digest = digestOf(text);
      if (!force && this.digestOf(topic) === digest) continue;
      this.remember(topic, digest);
      sent++;
      work.push(this.send(topic, text, true));
    }
    await Promise.all(work);
    return { sent, removed };
  }

  /** Removes every published config not in `keep` (a device that left, after a sync device by device). */
  async prune(keep: ReadonlySet<string>): Promise<number> {
    const gone = [...this.topics].filter((topic) => !keep.has(topic));
    for (const topic of gone) this.forget(topic);
    await Promise.all(gone.map((topic) => this.send(topic, "", true)));
    return gone.length;
  }

  private digestOf(topic: string): string | undefined {
    return this.byNode.get(nodeOf(topic))?.get(topic);
  }

  private remember(topic: string, digest: string): void {
    const node = nodeOf(topic);
    let configs = this.byNode.get(node);
    if (!configs) {
      configs = new Map();
      this.byNode.set(node, configs);
    }
    configs.set(topic, digest);
  }

  private forget(topic: string): void {
    const node = nodeOf(topic);
    const configs = this.byNode.get(node);
    configs?.delete(topic);
    if (configs?.size === 0) this.byNode.delete(node);
  }
}

/** The discovery node of `<prefix>/<component>/<node>/<object>/config`. */
const nodeOf = (topic: string): string => topic.split("/").at(-3) ?? "";

/** 96 bits of SHA-1: only ever compared with the same topic's earlier digest. */
const digestOf = (text: string): string => createHash("sha1").update(text).digest().subarray(0, 12).toString("base64");
