import type { Logger } from "../log/log.js";
import type { DeviceState } from "../telemetry/index.js";
import { type Device, deviceId, devicesOf, type Inventory } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import { dayOf } from "../time/index.js";
import { completeStateOf, internStateKeys, stateKeys } from "./complete-state.js";
import { CounterGuard } from "./counter-guard.js";
import { dongleState } from "./discovery.js";
import { type DeviceDetails, detailsOf, entitiesFor, inventoryState, statePatch } from "./entities/index.js";
import { givtcpReadingValues, givtcpState, withoutGivtcpOnly } from "./givtcp/state.js";
import type { Send } from "./publisher.js";
import { countersOf, internKeySet, NO_KEYS } from "./state-keys.js";
import type { Topics } from "./topics.js";

const LOST = /^(lost|offline)$/i;

type StateValue = string | number | boolean | null;

/**
 * What Home Assistant is shown of each device: one retained state per device, published only
 * when it changed and complete with every key its entities read, and its availability. Nothing
 * is published before the announcement. It also knows each device's layout and reported keys,
 * which discovery is built from; `onLearnt` is told when they change.
 */
export class DeviceStates {
  inventory: Inventory | undefined;
  readonly devices = new Map<string, Device>();
  announced = false;
  /** Told of a device whose layout or reported keys changed, after its state went out. */
  onLearnt: (id: string) => void = () => undefined;
  private readonly states = new Map<string, Record<string, StateValue>>();
  private readonly published = new Map<string, string>();
  private readonly available = new Map<string, boolean>();
  private readonly details = new Map<string, DeviceDetails>();
  /** Keys each device has reported a value for; entities that need data follow it. */
  private readonly seen = new Map<string, ReadonlySet<string>>();
  /** Each device's state keys, worked out once per change of what they depend on; shared when equal. */
  private readonly stateKeyCache = new Map<string, { readonly version: string; readonly keys: readonly string[] }>();
  private readonly detailsVersion = new Map<string, number>();
  private readonly counters: CounterGuard;

  constructor(
    private readonly options: {
      readonly topics: Topics;
      readonly send: Send;
      readonly clock: Clock;
      logger: Logger;
      /** Inverters' states also carry the values GivTCP's names read (homeassistant.naming: givtcp). */
      readonly givtcp?: boolean;
    },
  ) {
    this.counters = new CounterGuard(options.logger);
  }

  /** Takes a new inventory; what is known of the devices without data goes into their states. */
  setInventory(inventory: Inventory): void {
    this.inventory = inventory;
    this.devices.clear();
    this.stateKeyCache.clear();
    for (const device of devicesOf(inventory)) this.devices.set(deviceId(device), device);
    for (const device of this.devices.values()) {
      const patch = inventoryState(device);
      if (Object.keys(patch.values).length > 0) this.applyState(patch.device, patch.values);
      const dongle = device.kind === "inverter" ? dongleState(device) : undefined;
      if (dongle) this.applyState(dongle.device, dongle.values);
    }
  }

  /** Every availability and state again (a new connection, Home Assistant back online). */
  publishAll(): void {
    for (const id of this.states.keys()) {
      if (this.devices.has(id))
        void this.options.send(
          this.options.topics.availability(id),
          this.available.get(id) === false ? "offline" : "online",
          true,
        );
      this.published.delete(id);
      this.publishState(id);
    }
  }

  availability(device: string, available: boolean): void {
    if (this.available.get(device) === available) return;
    this.available.set(device, available);
    void this.options.send(this.options.topics.availability(device), available ? "online" : "offline", true);
  }

  /** A reading from telemetry: its state, and what it tells of the device's layout and keys. */
  reading(reading: DeviceState): void {
    const patch = statePatch(reading, (id) => this.states.get(id));
    if (!patch) return;
    if (reading.kind === "inverter.live") {
      const status = reading.values.status;
      this.dongleHeard(reading.serial, typeof status === "string" ? status : null);
    }
    const learnt = detailsOf(reading);
    const values = this.options.givtcp
      ? { ...patch.values, ...givtcpReadingValues(reading) }
      : withoutGivtcpOnly(patch.values);
    const newKeys = this.noteReported(patch.device, values);
    this.applyState(patch.device, values);
    if (learnt || newKeys) this.learnDetails(patch.device, learnt ?? {});
  }

  /** What the catalogue knows of a device: its layout, and which keys it has reported. */
  detailsFor(id: string): DeviceDetails {
    return { ...this.details.get(id), seenKeys: [...(this.seen.get(id) ?? [])].sort() };
  }

  /** The layout learnt so far, without the reported keys (for commands and control states). */
  layout(id: string): DeviceDetails | undefined {
    return this.details.get(id);
  }

  /** Layout seen in readings or control values: the state goes out complete for the new entities first. */
  learnDetails(id: string, learnt: DeviceDetails): void {
    const before = this.details.get(id);
    const after = { ...before, ...learnt };
    if (JSON.stringify(before ?? {}) !== JSON.stringify(after)) {
      this.details.set(id, after);
      this.detailsVersion.set(id, (this.detailsVersion.get(id) ?? 0) + 1);
    }
    if (!this.announced) return;
    this.publishState(id);
    this.onLearnt(id);
  }

  /** Values the daemon itself tells of a device (the path in use), announced like a reading's new keys. */
  report(id: string, values: Readonly<Record<string, StateValue>>): void {
    const newKeys = this.noteReported(id, values);
    this.applyState(id, values);
    if (newKeys) this.learnDetails(id, {});
  }

  /** Merges values into the device's state and publishes it when it changed. */
  applyState(id: string, values: Readonly<Record<string, StateValue>>): void {
    const state = { ...this.states.get(id), ...this.guardCounters(id, values) };
    this.states.set(id, state);
    this.publishState(id);
  }

  /** The dongle is heard while the cloud does not report its inverter lost. */
  private dongleHeard(serial: string, status: string | null | undefined): void {
    const inverter = this.inventory?.inverters.find((one) => one.serial === serial);
    if (!inverter || !status) return;
    const dongle = dongleState(inverter, !LOST.test(status));
    if (dongle) this.applyState(dongle.device, dongle.values);
  }

  /** Records which keys the device reported a value for; true when one is new. */
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

  /** Publishes the device's complete state if it changed since last sent; nothing before the announcement. */
  private publishState(id: string): void {
    const state = this.states.get(id);
    if (!this.announced || !state) return;
    const device = this.devices.get(id);
    const complete = device ? completeStateOf(this.stateKeysOf(id), state) : state;
    const text = JSON.stringify(
      this.options.givtcp && device?.kind === "inverter"
        ? { ...complete, ...givtcpState(complete, this.options.clock.now()) }
        : complete,
    );
    if (this.published.get(id) === text) return;
    this.published.set(id, text);
    void this.options.send(this.options.topics.deviceState(id), text, true);
  }

  /** Energy counters that went backwards by a glitch keep their last value. */
  private guardCounters(id: string, values: Readonly<Record<string, StateValue>>): Record<string, StateValue> {
    const device = this.devices.get(id);
    if (!device) return { ...values };
    const guarded: Record<string, StateValue> = { ...values };
    const day = dayOf(this.options.clock.now(), this.inventory?.timezone ?? "UTC");
    for (const entity of countersOf(device)) {
      const value = guarded[entity.key];
      if (!entity.counter || typeof value !== "number") continue;
      guarded[entity.key] = this.counters.accept(id, entity.key, value, entity.counter, day);
    }
    return guarded;
  }
}
