import type { DiscoveryMessage } from "./discovery.js";

type Send = (topic: string, payload: string, retain: boolean) => Promise<void>;

/**
 * The device discovery configs this bridge has published, so that each is sent once per real
 * change and a config that stops applying, for whatever reason, is removed (empty retained
 * payload) rather than left on the broker.
 */
export class DiscoveryRegistry {
  private readonly published = new Map<string, string>();

  constructor(private readonly send: Send) {}

  /** The config topics currently published. */
  get topics(): ReadonlySet<string> {
    return new Set(this.published.keys());
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
    for (const topic of this.published.keys()) {
      if (next.has(topic) || (group !== undefined && nodeOf(topic) !== group)) continue;
      this.published.delete(topic);
      removed++;
      work.push(this.send(topic, "", true));
    }
    let sent = 0;
    for (const [topic, text] of next) {
      if (!force && this.published.get(topic) === text) continue;
      this.published.set(topic, text);
      sent++;
      work.push(this.send(topic, text, true));
    }
    await Promise.all(work);
    return { sent, removed };
  }

  /** Removes every published config not in `keep` (a device that left, after a sync device by device). */
  async prune(keep: ReadonlySet<string>): Promise<number> {
    const gone = [...this.published.keys()].filter((topic) => !keep.has(topic));
    for (const topic of gone) this.published.delete(topic);
    await Promise.all(gone.map((topic) => this.send(topic, "", true)));
    return gone.length;
  }
}

/** The discovery node of `<prefix>/<component>/<node>/<object>/config`. */
const nodeOf = (topic: string): string | undefined => topic.split("/").at(-3);
