import type { CloudClient } from "../cloud/client.js";
import type { ChangeOutcome, ControlGate } from "../control/index.js";
import type { Logger } from "../log.js";
import type { RulesRuntime } from "../ports/rules.js";
import type { Availability, DeviceState } from "../telemetry/index.js";
import { type Device, deviceId, devicesOf, dongleOf, type Inventory } from "../telemetry/inventory.js";
import { type Clock, systemClock } from "../time/clock.js";
import { dayOf } from "../time/local-days.js";
import { runBridgeAction } from "./bridge-actions.js";
import { completeStateOf, internStateKeys, stateKeys } from "./complete-state.js";
import { ControlSync, controlKey } from "./control-sync.js";
import { CounterGuard } from "./counter-guard.js";
import { type DiscoveryMessage, deviceDiscoveryMessages, dongleDiscoveryMessages, dongleState } from "./discovery.js";
import { DiscoveryRegistry } from "./discovery-registry.js";
import {
  commandFor,
  controlState,
  type DeviceDetails,
  detailsOf,
  type EntityDef,
  entitiesFor,
  inventoryState,
  statePatch,
} from "./entities/index.js";
import { MqttConnection } from "./mqtt-connection.js";
import type { MqttTls } from "./mqtt-tls.js";
import { oversized } from "./payload-limit.js";
import { rulesNode } from "./rules-discovery.js";
import { type AttachRulesOptions, RulesEntities, rulesClockOn } from "./rules-entities.js";
import { staleConfigs } from "./stale-configs.js";
import type { Topics } from "./topics.js";

export interface BridgeOptions {
  readonly mqtt: { url: string; username?: string; password?: string; clientId?: string; tls?: MqttTls };
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
  /** Longest wait for the first round of reads before announcing the devices anyway; 30 s by default. */
  readonly announceWithinMs?: number;
  /** The daemon's one clock: now, and the rules entities' half-hourly refresh; the system clock by default. */
  readonly clock?: Clock;
}

const LOST = /^(lost|offline)$/i;

type StateValue = string | number | boolean | null;

/**
 * Home Assistant over MQTT: discovery, availability (bridge and device), one retained state
 * per device (published only when it changed, complete with every key its entities read),
 * commands through the gate with a result per command, and bridge actions.
 *
 * Nothing about the devices is announced until the first round of reads is in (or a time
 * limit passes): discovery then lists only entities the devices have data for, and each
 * device's first state is complete.
 */
export class HomeAssistantBridge {
  private inventory: Inventory | undefined;
  private readonly devices = new Map<string, Device>();
  private readonly states = new Map<string, Record<string, StateValue>>();
  private readonly published = new Map<string, string>();
  private readonly available = new Map<string, boolean>();
  private readonly details = new Map<string, DeviceDetails>();
  /** Keys each device has reported a value for; entities that need data follow it. */
  private readonly seen = new Map<string, ReadonlySet<string>>();
  /**
   * Each device's state keys, worked out once per change of what they depend on (the device,
   * its layout, the keys it reported): a fleet's readings would otherwise rebuild every
   * catalogue. Only the keys are kept, shared between devices that have the same ones.
   */
  private readonly stateKeyCache = new Map<string, { readonly version: string; readonly keys: readonly string[] }>();
  private readonly detailsVersion = new Map<string, number>();
  private readonly discovery: DiscoveryRegistry;
  private readonly counters: CounterGuard;
  private announced = false;
  /** Discovery is sent one device after another; calls wait their turn. */
  private discoveryQueue: Promise<void> = Promise.resolve();
  /** Devices whose configs are to be compared and sent, in the order asked. */
  private readonly discoveryDue = new Set<string>();
  private draining = false;
  private readonly controls: ControlSync;
  private readonly rules: RulesEntities;
  private readonly abort = new AbortController();
  private readonly connection: MqttConnection;
  private stopped = false;
  /** Commands being handled, so that stop() can let them finish. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Others that publish on this connection and must publish again after every (re)connection. */
  private readonly republishers: (() => Promise<void>)[] = [];
  /** Discovery nodes other features publish under (the rules device, the bridge's own device). */
  private readonly ownedNodes = new Set<string>();

  constructor(private readonly options: BridgeOptions) {
    const { topics } = options;
    this.controls = new ControlSync(options.client, options.gate, options.logger);
    this.discovery = new DiscoveryRegistry((topic, payload, retain) => this.send(topic, payload, retain));
    this.counters = new CounterGuard(options.logger);
    this.rules = new RulesEntities({
      topics,
      origin: options.origin,
      discovery: options.discovery,
      logger: options.logger,
      send: (topic, payload, retain) => this.send(topic, payload, retain),
      ...(options.clock ? { clock: rulesClockOn(options.clock) } : {}),
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

  /**
   * Runs `republish` after every (re)connection and Home Assistant restart, with discovery and
   * state. `discoveryNode` names the discovery node whose configs that feature owns, so that the
   * clean-up of stale configs leaves them alone.
   */
  addRepublisher(republish: () => Promise<void>, discoveryNode?: string): void {
    this.republishers.push(republish);
    if (discoveryNode) this.ownedNodes.add(discoveryNode);
    // Before the announcement nothing is published: it runs then, with everything else.
    if (this.announced && this.connection.connected) void republish();
  }

  /** Publishes on the bridge's connection; a failure is thrown to the caller, not logged. */
  publish(topic: string, payload: string, retain: boolean): Promise<void> {
    return this.connection.publish(topic, payload, { retain });
  }

  /**
   * Connects and announces the devices once `firstRound` settles (what is known at start-up has
   * been read) or the time limit passes. Readings are handed in with reading().
   */
  async start(inventory: Inventory, firstRound: Promise<void> = Promise.resolve()): Promise<void> {
    await this.connect(inventory);
    await this.announceAfter(firstRound);
  }

  /** Takes the inventory and connects; what is known of the devices without data is published. */
  async connect(inventory: Inventory): Promise<void> {
    this.setInventory(inventory);
    await this.connection.start();
    this.publishInventoryState();
  }

  /** Announces the devices once `firstRound` settles or the time limit passes (see start()). */
  async announceAfter(firstRound: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.options.announceWithinMs ?? 30_000);
    });
    await Promise.race([
      firstRound,
      limit,
      new Promise((resolve) => this.abort.signal.addEventListener("abort", resolve)),
    ]);
    clearTimeout(timer);
    if (this.stopped) return;
    this.announced = true;
    if (this.connection.connected) {
      await this.publishEverything(false);
      if (!this.stopped) await this.removeStaleConfigs();
    }
    if (!this.stopped) void this.loadControls();
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

  /**
   * Rules are on their way (true at start when a rules file is configured) or will not come
   * (false): until they are attached, a command to them is answered "starting, try again".
   */
  rulesStarting(starting: boolean): void {
    this.rules.expect(starting);
  }

  /** The rules changed outside MQTT (the web page switched one): publish their state again. */
  rulesChanged(): Promise<void> {
    return this.rules.refreshState();
  }

  private publishInventoryState(): void {
    for (const device of this.devices.values()) {
      const patch = inventoryState(device);
      if (Object.keys(patch.values).length > 0) this.applyState(patch.device, patch.values);
      const dongle = device.kind === "inverter" ? dongleState(device) : undefined;
      if (dongle) this.applyState(dongle.device, dongle.values);
    }
  }

  /**
   * Removes retained configs of ours that a previous run left and that no longer apply: a
   * device removed while the daemon was down, an entity that no longer has data. The rules
   * device keeps its own.
   */
  private async removeStaleConfigs(): Promise<void> {
    if (!this.options.discovery) return;
    const { topics, logger } = this.options;
    const retained = await this.connection.collectRetained(
      `${topics.discoveryPrefix}/+/+/+/config`,
      `${topics.base}/bridge/sync`,
    );
    const current = this.discovery.topics;
    const owned = new Set([rulesNode(topics), ...this.ownedNodes]);
    const stale = staleConfigs(retained, {
      baseTopic: topics.base,
      keep: (topic) => current.has(topic) || owned.has(topic.split("/")[2] ?? ""),
    });
    if (stale.length === 0) return;
    logger.info({ configs: stale.length }, "removing Home Assistant entities that no longer apply");
    await Promise.all(stale.map((topic) => this.send(topic, "", true)));
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
    this.stateKeyCache.clear();
    for (const device of devicesOf(inventory)) this.devices.set(deviceId(device), device);
    if (previous) {
      this.publishInventoryState();
      if (this.announced && this.connection.connected) void this.publishDiscovery(false);
    }
  }

  /** Publishes offline, lets in-flight commands finish (up to the timeout), and disconnects. */
  async stop(timeoutMs = 1500): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.abort.abort();
    this.rules.stop();
    const deadline = Date.now() + timeoutMs;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs / 2);
      }),
    ]);
    clearTimeout(timer);
    await this.connection.stop(
      { topic: this.options.topics.bridgeState, payload: JSON.stringify({ state: "offline" }) },
      Math.max(100, deadline - Date.now()),
    );
  }

  /**
   * Everything retained, again: after (re)connecting, since a broker without persistence has
   * lost it, and when Home Assistant comes online. States go before discovery, so that an
   * entity never reads a state without its key.
   */
  private async publishEverything(reconnected: boolean): Promise<void> {
    const { topics, logger } = this.options;
    await this.send(topics.bridgeState, JSON.stringify({ state: "online" }), true);
    if (!this.announced) return;
    for (const id of this.states.keys()) {
      if (this.devices.has(id))
        await this.send(topics.availability(id), this.available.get(id) === false ? "offline" : "online", true);
      this.published.delete(id);
      this.publishState(id);
    }
    await this.publishDiscovery(true);
    await this.rules.publishAll();
    for (const republish of this.republishers) await republish();
    logger.info({ devices: this.devices.size, reconnected }, "published discovery and state");
  }

  /**
   * Every device's configs, one device after another (a fleet's configs are never all built or
   * in flight at once), each compared with what was sent for it; configs of devices that left
   * are removed. Calls queue, so two never interleave.
   */
  private publishDiscovery(force: boolean): Promise<void> {
    const turn = this.discoveryQueue.then(() => this.sendDiscovery(force));
    this.discoveryQueue = turn.catch(() => undefined);
    return turn;
  }

  private async sendDiscovery(force: boolean): Promise<void> {
    const inventory = this.inventory;
    if (!this.options.discovery || !inventory) return;
    const context = this.discoveryContext();
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
      if (this.stopped) break;
      const messages = group.messages();
      for (const message of messages) keep.add(message.topic);
      const work = this.discovery.sync(messages, force, group.id);
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work)).catch(() => undefined);
      if (inFlight.size >= DISCOVERY_DEVICES_IN_FLIGHT) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    if (this.stopped) return;
    await this.discovery.prune(keep);
  }

  /** What discovery messages are built with: the topics, the origin, and each device's details. */
  private discoveryContext() {
    return {
      topics: this.options.topics,
      origin: this.options.origin,
      details: (id: string) => this.detailsFor(id),
    };
  }

  /** What the catalogue knows of a device: its layout, and which keys it has reported. */
  private detailsFor(id: string): DeviceDetails {
    return { ...this.details.get(id), seenKeys: [...(this.seen.get(id) ?? [])].sort() };
  }

  private stateKeysOf(id: string): readonly string[] {
    const device = this.devices.get(id);
    if (!device) return [];
    const version = `${this.seen.get(id)?.size ?? 0}:${this.detailsVersion.get(id) ?? 0}`;
    const cached = this.stateKeyCache.get(id);
    if (cached?.version === version) return cached.keys;
    const keys = internStateKeys(stateKeys(entitiesFor(device, this.detailsFor(id))));
    this.stateKeyCache.set(id, { version, keys });
    return keys;
  }

  /** A reading or an availability verdict from telemetry: state, availability and the rules' counters. */
  reading(reading: DeviceState | Availability): void {
    if (this.stopped) return;
    this.rules.onReading(reading);
    if (reading.kind === "availability") {
      if (this.available.get(reading.device) === reading.available) return;
      this.available.set(reading.device, reading.available);
      void this.send(this.options.topics.availability(reading.device), reading.available ? "online" : "offline", true);
      return;
    }
    const patch = statePatch(reading, (id) => this.states.get(id));
    if (!patch) return;
    if (reading.kind === "inverter.live") this.dongleHeard(reading.serial, reading.data.status);
    const learnt = detailsOf(reading);
    const newKeys = this.noteReported(patch.device, patch.values);
    this.applyState(patch.device, patch.values);
    if (learnt || newKeys) this.learnDetails(patch.device, learnt ?? {});
  }

  /** The dongle is heard while the cloud does not report its inverter lost. */
  private dongleHeard(serial: string, status: string | null | undefined): void {
    const inverter = this.inventory?.inverters.find((one) => one.serial === serial);
    if (!inverter || !status) return;
    const dongle = dongleState(inverter, !LOST.test(status));
    if (dongle) this.applyState(dongle.device, dongle.values);
  }

  /**
   * Records which keys the device reported a value for; true when one is new. The sets are
   * shared between devices that reported the same keys (a fleet's inverters of one model).
   */
  private noteReported(id: string, values: Readonly<Record<string, StateValue>>): boolean {
    const seen = this.seen.get(id) ?? NO_KEYS;
    const added = Object.entries(values).filter(([key, value]) => value !== null && !seen.has(key));
    if (added.length === 0) {
      if (!this.seen.has(id)) this.seen.set(id, seen);
      return false;
    }
    this.seen.set(id, internKeySet([...seen, ...added.map(([key]) => key)]));
    return true;
  }

  /**
   * Layout seen in readings (solar arrays, EMS meters, EV modes) and newly reported keys:
   * the state goes out complete for the new entities first, then the discovery that changed.
   */
  private learnDetails(id: string, learnt: DeviceDetails): void {
    const before = this.details.get(id);
    const after = { ...before, ...learnt };
    if (JSON.stringify(before ?? {}) !== JSON.stringify(after)) {
      this.details.set(id, after);
      this.detailsVersion.set(id, (this.detailsVersion.get(id) ?? 0) + 1);
    }
    if (!this.announced || !this.connection.connected) return;
    this.publishState(id);
    this.publishDeviceDiscovery(id);
  }

  /**
   * One device's configs, compared with what was sent for it: a fleet's other devices cost
   * nothing. Devices wait as ids, not as built configs, and a device asked for twice is done
   * once with what is known by then: a fleet's first readings would otherwise queue hundreds of
   * config lists faster than the broker takes them.
   */
  private publishDeviceDiscovery(id: string): void {
    this.discoveryDue.add(id);
    if (this.draining) return;
    this.draining = true;
    const turn = this.discoveryQueue.then(() => this.drainDeviceDiscovery());
    this.discoveryQueue = turn.catch(() => undefined);
  }

  private async drainDeviceDiscovery(): Promise<void> {
    try {
      for (const id of this.discoveryDue) {
        this.discoveryDue.delete(id);
        const device = this.devices.get(id);
        if (this.stopped || !this.options.discovery || !this.inventory || !device) continue;
        const messages = deviceDiscoveryMessages(device, this.inventory, this.discoveryContext());
        await this.discovery.sync(messages, false, id);
      }
    } finally {
      this.draining = false;
    }
  }

  /** Merges values into the device's state and publishes it when it changed. */
  applyState(id: string, values: Readonly<Record<string, StateValue>>): void {
    const state = { ...this.states.get(id), ...this.guardCounters(id, values) };
    this.states.set(id, state);
    this.publishState(id);
  }

  /** Publishes the device's complete state if it changed since last sent; nothing before the announcement. */
  private publishState(id: string): void {
    const state = this.states.get(id);
    if (!this.announced || !state) return;
    const text = JSON.stringify(this.devices.has(id) ? completeStateOf(this.stateKeysOf(id), state) : state);
    if (this.published.get(id) === text) return;
    this.published.set(id, text);
    void this.send(this.options.topics.deviceState(id), text, true);
  }

  /** Energy counters that went backwards by a glitch keep their last value. */
  private guardCounters(id: string, values: Readonly<Record<string, StateValue>>): Record<string, StateValue> {
    const device = this.devices.get(id);
    if (!device) return { ...values };
    const guarded: Record<string, StateValue> = { ...values };
    const day = dayOf((this.options.clock ?? systemClock).now(), this.inventory?.timezone ?? "UTC");
    for (const entity of countersOf(device)) {
      const value = guarded[entity.key];
      if (!entity.counter || typeof value !== "number") continue;
      guarded[entity.key] = this.counters.accept(id, entity.key, value, entity.counter, day);
    }
    return guarded;
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
    /** A command refused before it became a change: answered, and recorded in the audit log. */
    const refuse = (reason: string) => {
      const target = device
        ? {
            targetKind: device.kind,
            target: device.kind === "ev_charger" || device.kind === "smart_device" ? device.uuid : device.serial,
          }
        : { targetKind: "device", target: id };
      const request = { entity, payload: payload.length <= 256 ? payload : `${payload.slice(0, 256)}…` };
      return result(
        gate.refuse({ ...target, action: `set:${entity}`, request, reason }, { source: "mqtt", name: entity }),
      );
    };
    const tooBig = oversized(payload, "command");
    if (tooBig) {
      await refuse(tooBig);
      return;
    }
    if (!device) {
      await refuse(`no device "${id}" on this account`);
      return;
    }
    const parsed = commandFor(device, entity, payload, this.controls.source(device), this.details.get(id));
    if (!parsed.ok) {
      await refuse(parsed.message);
      return;
    }
    let outcome: ChangeOutcome;
    try {
      outcome = await gate.apply(parsed.request, { source: "mqtt", name: entity });
    } catch (error) {
      logger.error({ err: error, device: id, entity }, "command failed");
      await result({ ok: false, message: `the command failed: ${(error as Error).message}` });
      return;
    }
    await result(outcome);
    const source = await this.controls.afterChange(id, parsed.request, outcome, device, this.abort.signal);
    this.applyState(id, controlState(device, source, this.details.get(id)));
    this.options.refresh(id);
  }

  /**
   * Shows a device's controls again as the gate records them, after a change that did not come
   * from Home Assistant (a rule, the CLI, a bridge action): `device` is its serial or uuid.
   */
  showControls(device: string): void {
    for (const [id, known] of this.devices) {
      if (controlKey(known) !== device) continue;
      this.applyState(id, controlState(known, this.controls.source(known), this.details.get(id)));
      return;
    }
  }

  private async send(topic: string, payload: string, retain: boolean): Promise<void> {
    try {
      await this.connection.publish(topic, payload, { retain });
    } catch (error) {
      // Publishes cut short by our own shutdown are expected, not worth a warning.
      if (this.stopped) return;
      this.options.logger.warn({ topic, err: (error as Error).message }, "MQTT publish failed");
    }
  }
}

function evModesOf(data: unknown): readonly string[] | undefined {
  const mode = (data as { "change-mode"?: { available?: unknown } } | undefined)?.["change-mode"];
  return Array.isArray(mode?.available) ? mode.available.filter((m): m is string => typeof m === "string") : undefined;
}

const NO_KEYS: ReadonlySet<string> = new Set();
const keySets = new Map<string, ReadonlySet<string>>();

/** One set for every device that reported exactly these keys. */
function internKeySet(keys: readonly string[]): ReadonlySet<string> {
  const signature = [...keys].sort().join("\n");
  let set = keySets.get(signature);
  if (!set) {
    set = new Set(keys);
    keySets.set(signature, set);
  }
  return set;
}

/** Devices whose discovery configs are sent at the same time during a full announcement. */
const DISCOVERY_DEVICES_IN_FLIGHT = 8;

const countersByDevice = new WeakMap<Device, readonly EntityDef[]>();

/** The device's energy counters (which ones does not depend on what it reported). */
function countersOf(device: Device): readonly EntityDef[] {
  let counters = countersByDevice.get(device);
  if (!counters) {
    counters = entitiesFor(device).filter((entity) => entity.counter !== undefined);
    countersByDevice.set(device, counters);
  }
  return counters;
}
