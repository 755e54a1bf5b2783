import { createHash } from "node:crypto";
import type { Subscription } from "rxjs";
import type { CloudClient } from "../cloud/client.js";
import type { ChangeOutcome, ControlGate } from "../control/index.js";
import type { Logger } from "../log.js";
import type { RulesRuntime } from "../rules/engine/runtime.js";
import { type Device, deviceId, devicesOf, type Inventory } from "../telemetry/inventory.js";
import type { Reading } from "../telemetry/readings.js";
import { runBridgeAction } from "./bridge-actions.js";
import { ControlSync } from "./control-sync.js";
import { deviceDiscoveryMessages, dongleState, removalMessages } from "./discovery.js";
import {
  commandFor,
  controlState,
  type DeviceDetails,
  detailsOf,
  inventoryState,
  statePatch,
} from "./entities/index.js";
import { MqttConnection } from "./mqtt-connection.js";
import { type AttachRulesOptions, RulesEntities } from "./rules-entities.js";
import type { Topics } from "./topics.js";

export interface BridgeOptions {
  readonly mqtt: { url: string; username?: string; password?: string; clientId?: string };
  readonly topics: Topics;
  /** Home Assistant's birth topic: "online" there means discovery must be sent again. */
  readonly statusTopic: string;
  readonly discovery: boolean;
  readonly origin: { name: string; sw_version: string; support_url: string };
  readonly client: CloudClient;
  readonly gate: ControlGate;
  readonly logger: Logger;
  /** Asks telemetry to poll a device at once, after a command. */
  readonly refresh: (deviceId: string) => void;
}

type StateValue = string | number | boolean | null;

/**
 * Home Assistant over MQTT: discovery, availability (bridge and device), one retained state
 * per device (published only when it changed), commands through the gate with a result per
 * command, and bridge actions.
 */
export class HomeAssistantBridge {
  private inventory: Inventory | undefined;
  private readonly devices = new Map<string, Device>();
  private readonly states = new Map<string, Record<string, StateValue>>();
  private readonly published = new Map<string, string>();
  private readonly available = new Map<string, boolean>();
  private readonly details = new Map<string, DeviceDetails>();
  /** A digest of the discovery configs last sent for each device, so that only a device that changed is sent again. */
  private readonly discoveryDigests = new Map<string, string>();
  /** Discovery is sent one request after another, so a fleet's first readings cannot put all its configs in flight at once. */
  private discoveryQueue: Promise<void> = Promise.resolve();
  private readonly controls: ControlSync;
  private readonly rules: RulesEntities;
  private readonly abort = new AbortController();
  private readonly connection: MqttConnection;
  private subscription: Subscription | undefined;
  private stopped = false;
  /** Commands being handled, so that stop() can let them finish. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: BridgeOptions) {
    const { topics } = options;
    this.controls = new ControlSync(options.client, options.logger);
    this.rules = new RulesEntities({
      topics,
      origin: options.origin,
      discovery: options.discovery,
      logger: options.logger,
      send: (topic, payload, retain) => this.send(topic, payload, retain),
    });
    this.connection = new MqttConnection({
      ...options.mqtt,
      will: { topic: topics.bridgeState, payload: JSON.stringify({ state: "offline" }) },
      logger: options.logger,
      subscriptions: [
        topics.commandWildcard,
        topics.bridgeRequestWildcard,
        options.statusTopic,
        ...this.rules.subscriptions,
      ],
      onConnect: (reconnected) => this.publishEverything(reconnected),
      onMessage: (topic, payload) => this.onMessage(topic, payload),
    });
  }

  /** Whether the MQTT connection is up right now (for the health file). */
  get connected(): boolean {
    return this.connection.connected;
  }

  async start(
    inventory: Inventory,
    readings: { subscribe: (next: (r: Reading) => void) => Subscription },
  ): Promise<void> {
    this.setInventory(inventory);
    await this.connection.start();
    this.publishInventoryState();
    this.follow(readings);
    void this.loadControls();
  }

  /**
   * Publishes the tariff rules to Home Assistant (switches, buttons, prices, today's cost, events);
   * call after start(), and again with the new runtime when the rules are reloaded. Today's cost
   * reads the grid counters of the readings the bridge follows. The time zone defaults to the
   * account's.
   */
  attachRules(runtime: RulesRuntime, options: Partial<AttachRulesOptions> = {}): Promise<void> {
    const timeZone = options.timeZone ?? this.inventory?.timezone ?? "Europe/London";
    return this.rules.attach(runtime, { ...options, timeZone });
  }

  /** Takes readings from a new telemetry (after the inventory changed). */
  follow(readings: { subscribe: (next: (r: Reading) => void) => Subscription }): void {
    this.subscription?.unsubscribe();
    this.subscription = readings.subscribe((reading) => this.onReading(reading));
  }

  private publishInventoryState(): void {
    for (const device of this.devices.values()) {
      const patch = inventoryState(device);
      if (Object.keys(patch.values).length > 0) this.applyState(patch.device, patch.values);
      const dongle = device.kind === "inverter" ? dongleState(device) : undefined;
      if (dongle) this.applyState(dongle.device, dongle.values);
    }
  }

  /** Reads the devices' control values in the background, with what the budget leaves. */
  private async loadControls(): Promise<void> {
    for (const [id, device] of this.devices) {
      if (this.stopped) return;
      const source = await this.controls.load(id, device, this.abort.signal);
      if (device.kind === "ev_charger") this.learnDetails(id, { evModes: evModesOf(source.evCommands) });
      this.applyState(id, controlState(device, source, this.details.get(id)));
    }
  }

  /** Takes a new inventory: discovery for new devices, removal for those that went away. */
  setInventory(inventory: Inventory): void {
    const previous = this.inventory;
    this.inventory = inventory;
    this.devices.clear();
    for (const device of devicesOf(inventory)) this.devices.set(deviceId(device), device);
    for (const id of this.discoveryDigests.keys()) if (!this.devices.has(id)) this.discoveryDigests.delete(id);
    if (previous && this.connection.connected) {
      const details = (id: string) => this.details.get(id);
      for (const message of removalMessages(previous, inventory, { topics: this.options.topics, details })) {
        void this.send(message.topic, "", true);
      }
      void this.publishDiscovery();
      this.publishInventoryState();
    }
  }

  /** Publishes offline, lets in-flight commands finish (up to the timeout), and disconnects. */
  async stop(timeoutMs = 1500): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.abort.abort();
    this.subscription?.unsubscribe();
    this.rules.stop();
    const deadline = Date.now() + timeoutMs;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((r) => setTimeout(r, timeoutMs / 2))]);
    await this.connection.stop(
      { topic: this.options.topics.bridgeState, payload: JSON.stringify({ state: "offline" }) },
      Math.max(100, deadline - Date.now()),
    );
  }

  private async publishEverything(reconnected: boolean): Promise<void> {
    const { topics, logger } = this.options;
    await this.send(topics.bridgeState, JSON.stringify({ state: "online" }), true);
    await this.publishDiscovery({ force: true });
    for (const id of this.devices.keys()) {
      if (this.stopped) return;
      await this.send(topics.availability(id), this.available.get(id) === false ? "offline" : "online", true);
      const state = this.states.get(id);
      if (state) await this.send(topics.deviceState(id), JSON.stringify(state), true);
    }
    await this.rules.publishAll();
    logger.info({ devices: this.devices.size, reconnected }, "published discovery and state");
  }

  /**
   * Sends the discovery configs of every device (or only `only`) whose configs changed since
   * they were last sent, or of every one when `force`d (after a (re)connection or Home
   * Assistant's restart). A device at a time, so that a fleet's configs are never all in memory
   * at once, and a change of one device never sends the whole fleet's again.
   */
  private publishDiscovery(options: { readonly force?: boolean; readonly only?: string } = {}): Promise<void> {
    const turn = this.discoveryQueue.then(() => this.sendDiscovery(options));
    this.discoveryQueue = turn.catch(() => undefined);
    return turn;
  }

  private async sendDiscovery(options: { readonly force?: boolean; readonly only?: string }): Promise<void> {
    const inventory = this.inventory;
    if (!this.options.discovery || !inventory) return;
    const context = {
      topics: this.options.topics,
      origin: this.options.origin,
      details: (id: string) => this.details.get(id),
    };
    for (const device of devicesOf(inventory)) {
      if (this.stopped) return;
      const id = deviceId(device);
      if (options.only !== undefined && id !== options.only) continue;
      const messages = deviceDiscoveryMessages(inventory, device, context).map((m) => ({
        topic: m.topic,
        text: JSON.stringify(m.payload),
      }));
      const hash = createHash("sha1");
      for (const m of messages) hash.update(m.topic).update("\n").update(m.text).update("\n");
      const digest = hash.digest("base64");
      if (!options.force && this.discoveryDigests.get(id) === digest) continue;
      this.discoveryDigests.set(id, digest);
      await Promise.all(messages.map((m) => this.send(m.topic, m.text, true)));
    }
  }

  private onReading(reading: Reading): void {
    this.rules.onReading(reading);
    if (reading.kind === "availability") {
      if (this.available.get(reading.device) === reading.available) return;
      this.available.set(reading.device, reading.available);
      this.options.logger.info(
        { device: reading.device, available: reading.available, reason: reading.reason },
        "availability",
      );
      void this.send(this.options.topics.availability(reading.device), reading.available ? "online" : "offline", true);
      return;
    }
    const patch = statePatch(reading, (id) => this.states.get(id));
    if (!patch) return;
    const learnt = detailsOf(reading);
    if (learnt) this.learnDetails(patch.device, learnt);
    this.applyState(patch.device, patch.values);
  }

  /** Layout seen in readings (solar arrays, EMS meters, EV modes); discovery follows when it changes. */
  private learnDetails(id: string, learnt: DeviceDetails): void {
    const before = this.details.get(id);
    const after = { ...before, ...learnt };
    if (JSON.stringify(before ?? {}) === JSON.stringify(after)) return;
    this.details.set(id, after);
    if (this.connection.connected) void this.publishDiscovery({ only: id });
  }

  /** Merges values into the device's state and publishes it when it changed. */
  applyState(id: string, values: Readonly<Record<string, StateValue>>): void {
    const state = { ...this.states.get(id), ...values };
    this.states.set(id, state);
    const text = JSON.stringify(state);
    if (this.published.get(id) === text) return;
    this.published.set(id, text);
    void this.send(this.options.topics.deviceState(id), text, true);
  }

  private onMessage(topic: string, payload: string): void {
    const { topics } = this.options;
    if (topic === this.options.statusTopic) {
      if (payload.trim() === "online") void this.publishEverything(true);
      return;
    }
    if (this.rules.handles(topic)) {
      this.track(this.rules.onMessage(topic, payload));
      return;
    }
    const requestPrefix = `${topics.base}/bridge/request/`;
    if (topic.startsWith(requestPrefix)) {
      this.track(this.handleAction(topic.slice(requestPrefix.length), payload));
      return;
    }
    if (!topic.startsWith(`${topics.base}/`)) return;
    const [id, set, entity, ...rest] = topic.slice(topics.base.length + 1).split("/");
    if (id && set === "set" && entity && rest.length === 0) this.track(this.handleCommand(id, entity, payload));
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async handleAction(action: string, payload: string): Promise<void> {
    const response = await runBridgeAction(action, payload, { client: this.options.client, gate: this.options.gate });
    await this.send(this.options.topics.bridgeResponse(action), JSON.stringify(response), false);
  }

  private async handleCommand(id: string, entity: string, payload: string): Promise<void> {
    const { topics, gate, logger } = this.options;
    const device = this.devices.get(id);
    const result = (outcome: { ok: boolean; code?: number | null; message: string }) =>
      this.send(
        topics.result(id),
        JSON.stringify({ entity, ok: outcome.ok, code: outcome.code ?? null, message: outcome.message }),
        false,
      );
    if (!device) {
      await result({ ok: false, message: `no device "${id}" on this account` });
      return;
    }
    const parsed = commandFor(device, entity, payload, this.controls.source(id), this.details.get(id));
    if (!parsed.ok) {
      await result({ ok: false, message: parsed.message });
      return;
    }
    let outcome: ChangeOutcome;
    try {
      outcome = await gate.apply(parsed.request, { source: "homeassistant", name: entity });
    } catch (error) {
      logger.error({ err: error, device: id, entity }, "command failed");
      await result({ ok: false, message: `the command failed: ${(error as Error).message}` });
      return;
    }
    await result(outcome);
    const source = await this.controls.afterChange(id, parsed.request, outcome, this.abort.signal);
    this.applyState(id, controlState(device, source, this.details.get(id)));
    this.options.refresh(id);
  }

  private async send(topic: string, payload: string, retain: boolean): Promise<void> {
    try {
      await this.connection.publish(topic, payload, { retain });
    } catch (error) {
      this.options.logger.warn({ topic, err: (error as Error).message }, "MQTT publish failed");
    }
  }
}

function evModesOf(data: unknown): readonly string[] | undefined {
  const mode = (data as { "change-mode"?: { available?: unknown } } | undefined)?.["change-mode"];
  return Array.isArray(mode?.available) ? mode.available.filter((m): m is string => typeof m === "string") : undefined;
}
