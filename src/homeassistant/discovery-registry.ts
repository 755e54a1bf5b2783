import { createHash } from "node:crypto";
import type { DiscoveryMessage } from "./discovery.js";

type Send = (topic: string, payload: string, retain: boolean) => Promise<void>;

/**
 * The device discovery configs this bridge has published, so that each is sent once per real
 * change and a config that stops applying, for whatever reason, is removed (empty retained
 * payload) rather than left on the broker.
 */
export class DiscoveryRegistry {
  /** Each published config's digest: a fleet's configs in full would be tens of MB. */
  private readonly published = new Map<string, string>();
  /** The published topics by discovery node, so that one device's sync looks at its own configs only. */
  private readonly byNode = new Map<string, Set<string>>();

  constructor(private readonly send: Send) {}

  /** The config topics currently published. */
  get topics(): ReadonlySet<string> {
    return new Set(this.published.keys());
  }

  private remember(topic: string, digest: string): void {
    this.published.set(topic, digest);
    const node = nodeOf(topic) ?? "";
    let topics = this.byNode.get(node);
    if (!topics) {
      topics = new Set();
      this.byNode.set(node, topics);
    }
    topics.add(topic);
  }

  private forget(topic: string): void {
    this.published.delete(topic);
    const node = nodeOf(topic) ?? "";
    const topics = this.byNode.get(node);
    topics?.delete(topic);
    if (topics?.size === 0) this.byNode.delete(node);
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
    const candidates = group === undefined ? [...this.published.keys()] : [...(this.byNode.get(group) ?? [])];
    for (const topic of candidates) {
      if (next.has(topic)) continue;
      this.forget(topic);
      removed++;
      work.push(this.send(topic, "", true));
    }
    let sent = 0;
    for (const [topic, text] of next) {
      const digest = digestOf(text);
      if (!force && this.published.get(topic) === digest) continue;
      this.remember(topic, digest);
      sent++;
      work.push(this.send(topic, text, true));
    }
    await Promise.all(work);
    return { sent, removed };
  }

  /** Removes every published config not in `keep` (a device that left, after a sync device by device). */
  async prune(keep: ReadonlySet<string>): Promise<number> {
    const gone = [...this.published.keys()].filter((topic) => !keep.has(topic));
    for (const topic of gone) this.forget(topic);
    await Promise.all(gone.map((topic) => this.send(topic, "", true)));
    return gone.length;
  }
}

/** The discovery node of `<prefix>/<component>/<node>/<object>/config`. */
const nodeOf = (topic: string): string | undefined => topic.split("/").at(-3);

const digestOf = (text: string): string => createHash("sha1").update(text).digest("base64");
