import type { Logger } from "../log/log.js";
import type { Mqtt } from "../mqtt/index.js";
import { deviceId, devicesOf, dongleOf } from "../telemetry/index.js";
import type { DeviceStates } from "./device-states.js";
import { type DiscoveryMessage, deviceDiscoveryMessages, dongleDiscoveryMessages, type Origin } from "./discovery.js";
import { DiscoveryRegistry } from "./discovery-registry.js";
import type { Send } from "./publisher.js";
import { rulesNode } from "./rules-discovery.js";
import { staleConfigs } from "./stale-configs.js";
import type { Topics } from "./topics.js";

/** Devices whose discovery configs are sent at the same time during a full announcement. */
const DISCOVERY_DEVICES_IN_FLIGHT = 8;

export interface DiscoveryPublisherOptions {
  readonly topics: Topics;
  readonly origin: Origin;
  /** homeassistant.naming: `givtcp` adds GivTCP's names beside the own ones. */
  readonly naming: "own" | "givtcp";
  /** homeassistant.discovery: false sends no configs at all. */
  readonly enabled: boolean;
  readonly states: DeviceStates;
  readonly mqtt: Mqtt;
  readonly send: Send;
  readonly logger: Logger;
  /** Discovery nodes other features publish under (the bridge's own device): never stale. */
  readonly keepNodes: readonly string[];
  readonly stopped: () => boolean;
}

/**
 * Home Assistant discovery of the devices: every device's configs, each compared with what was
 * sent for it, one device after another; a device whose layout changed on its own; the configs
 * of devices that left, and stale ones an earlier run left, removed. Calls queue, so two never
 * interleave.
 */
export class DiscoveryPublisher {
  private readonly registry: DiscoveryRegistry;
  private queue: Promise<void> = Promise.resolve();
  /** Devices whose configs are to be compared and sent, in the order asked. */
  private readonly due = new Set<string>();
  private draining = false;

  constructor(private readonly options: DiscoveryPublisherOptions) {
    this.registry = new DiscoveryRegistry((topic, payload, retain) => options.send(topic, payload, retain));
  }

  /** Every device's configs; `force` sends them even when unchanged (a broker or Home Assistant that lost them). */
  publishAll(force: boolean): Promise<void> {
    const turn = this.queue.then(() => this.sendAll(force));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** One device's configs, compared with what was sent for it; a device asked for twice is done once. */
  publishDevice(id: string): void {
    this.due.add(id);
    if (this.draining) return;
    this.draining = true;
    const turn = this.queue.then(() => this.drain());
    this.queue = turn.catch(() => undefined);
  }

  /**
   * Removes retained configs of ours that a previous run left and that no longer apply: a device
   * removed while the daemon was down, an entity that no longer has data. Owned nodes keep theirs.
   */
  async removeStale(): Promise<void> {
    const { topics, logger, enabled } = this.options;
    if (!enabled) return;
    const retained = await this.options.mqtt.collectRetained(
      `${topics.discoveryPrefix}/+/+/+/config`,
      `${topics.base}/bridge/sync`,
    );
    const current = this.registry.topics;
    const owned = new Set([rulesNode(topics), ...this.options.keepNodes]);
    const stale = staleConfigs(retained, {
      baseTopic: topics.base,
      keep: (topic) => current.has(topic) || owned.has(topic.split("/")[2] ?? ""),
    });
    if (stale.length === 0) return;
    logger.info({ configs: stale.length }, "removing Home Assistant entities that no longer apply");
    await Promise.all(stale.map((topic) => this.options.send(topic, "", true)));
  }

  private async sendAll(force: boolean): Promise<void> {
    const inventory = this.options.states.inventory;
    if (!this.options.enabled || !inventory) return;
    const context = this.context();
    const keep = new Set<string>();
    const groups: { id: string; messages: () => DiscoveryMessage[] }[] = [];
    for (const inverter of inventory.inverters) {
      const dongle = dongleOf(inverter);
      if (dongle) groups.push({ id: dongle.id, messages: () => dongleDiscoveryMessages(inverter, context) });
    }
    for (const device of devicesOf(inventory))
      groups.push({ id: deviceId(device), messages: () => deviceDiscoveryMessages(device, inventory, context) });
    // A few devices in flight: each waits for the broker's acknowledgements, and one at a time
    // would take minutes for a fleet; a few at a time still never holds a fleet's configs.
    const inFlight = new Set<Promise<unknown>>();
    for (const group of groups) {
      if (this.options.stopped()) break;
      const messages = group.messages();
      for (const message of messages) keep.add(message.topic);
      const work = this.registry.sync(messages, force, group.id);
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work)).catch(() => undefined);
      if (inFlight.size >= DISCOVERY_DEVICES_IN_FLIGHT) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    if (this.options.stopped()) return;
    await this.registry.prune(keep);
  }

  private async drain(): Promise<void> {
    const { states } = this.options;
    try {
      for (const id of this.due) {
        this.due.delete(id);
        const device = states.devices.get(id);
        if (this.options.stopped() || !this.options.enabled || !states.inventory || !device) continue;
        await this.registry.sync(deviceDiscoveryMessages(device, states.inventory, this.context()), false, id);
      }
    } finally {
      this.draining = false;
    }
  }

  /** What discovery messages are built with: the topics, the origin, and each device's details. */
  private context() {
    return {
      topics: this.options.topics,
      origin: this.options.origin,
      naming: this.options.naming,
      details: (id: string) => this.options.states.detailsFor(id),
    };
  }
}
