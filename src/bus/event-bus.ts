/**
 * The daemon's typed event bus (Zigbee2MQTT's eventBus, typed): telemetry publishes what it
 * fetched, availability and inventory changes; control publishes every change's outcome; the rules publish
 * what they do. Features subscribe under their own name, and a handler that throws (or rejects)
 * is reported and isolated: the other handlers still run and the process lives on.
 *
 * It imports types only, so that every folder may import it without an arrow back.
 */
import type { ChangeApplied } from "../control/index.js";
import type { RuleEvent, RuleStatus, RulesRuntime } from "../rules-runtime/index.js";
import type { DevicePath, Fetched, Inventory } from "../sources/index.js";
// biome-ignore lint/style/noRestrictedImports: past the face on purpose: telemetry/index.ts holds features that import the bus (a cycle).
import type { Availability, PollSucceeded } from "../telemetry/states.js";
import type { DeviceId } from "../vocabulary/device-id.js";

/** A device's availability verdict, as the `availability` event carries it. */
export type AvailabilityReading = Availability;

export type { ChangeApplied, Fetched };

/** Every event of the daemon and its payload. */
export interface DaemonEvents {
  /**
   * What one poll of one resource fetched, changed or not, whichever path fetched it: the
   * history's rows and the devices' states (telemetry's stateOf, StateChanges) are made from it.
   */
  readonly fetched: Fetched;
  /** A poll got its answer, changed or not: its devices' values are that fresh. */
  readonly polled: PollSucceeded;
  /** A device's values became stale (older than twice its poll interval) or fresh again. */
  readonly freshness: { readonly device: DeviceId; readonly stale: boolean; readonly at: number };
  /** A cloud request finished: its HTTP status, or undefined when nothing answered. */
  readonly cloudRequest: { readonly status: number | undefined };
  /** A device became available or unavailable (emitted on every poll's verdict, like MQTT's retained state). */
  readonly availability: AvailabilityReading;
  /** The device lists were read again; `devicesChanged` when devices came or went. */
  readonly inventoryChanged: { readonly inventory: Inventory; readonly devicesChanged: boolean };
  /** The first round of polls has answered (or its time ran out): announce what is known. */
  readonly firstRound: { readonly at: number };
  /** The control gate finished a request (applied, skipped, refused or failed). */
  readonly changeApplied: ChangeApplied;
  /** Something a rule did or means to do. */
  readonly ruleEvent: RuleEvent;
  /** The rules run: their runtime, and the zone their hours are read in. */
  readonly rulesStarted: { readonly runtime: RulesRuntime; readonly timeZone: string };
  /** The rules' list changed (enabled, next window, last run). */
  readonly rulesChanged: { readonly rules: readonly RuleStatus[] };
  /** A message came in on one of the MQTT connection's subscriptions: a feature that handles its topic takes it. */
  readonly mqttMessage: { readonly topic: string; readonly payload: string };
  /** The MQTT connection is up, the first time or again (a broker without persistence lost what was retained). */
  readonly mqttConnected: { readonly reconnected: boolean };
  /**
   * Home Assistant's devices, discovery and states went out (again): at the announcement, after a
   * reconnection, when Home Assistant came online. Other publishers of retained messages follow.
   */
  readonly republish: { readonly reconnected: boolean };
  /** A device's clock is off and left so (warn, or auto that may not set it), or right again: its Clock problem entity. */
  readonly clockProblem: {
    readonly device: DeviceId;
    readonly problem: boolean;
    /** While on: the warning's words, as bridge/logging has them (what is off and why it is left). */
    readonly message?: string;
  };
  /** With `source: auto`, the path a device's live data and changes take: said at start and at each switch. */
  readonly devicePath: { readonly device: DeviceId; readonly path: DevicePath; readonly at: number };
}

export type EventName = keyof DaemonEvents;
export type Handler<K extends EventName> = (payload: DaemonEvents[K]) => void | Promise<void>;

/** Told of a handler that failed; the bus itself never throws for one. */
export type HandlerFailure = (failure: {
  readonly event: EventName;
  readonly owner: string;
  readonly error: unknown;
}) => void;

interface Subscription {
  readonly owner: string;
  readonly handler: (payload: never) => void | Promise<void>;
}

export class EventBus {
  private readonly handlers = new Map<EventName, Subscription[]>();

  constructor(private readonly onFailure: HandlerFailure) {}

  /** Subscribes `owner` (a feature's name) to `event`; returns the unsubscribe. */
  on<K extends EventName>(event: K, owner: string, handler: Handler<K>): () => void {
    const subscription: Subscription = { owner, handler };
    const list = this.handlers.get(event) ?? [];
    this.handlers.set(event, [...list, subscription]);
    return () => {
      const current = this.handlers.get(event) ?? [];
      this.handlers.set(
        event,
        current.filter((one) => one !== subscription),
      );
    };
  }

  /** Removes every subscription of `owner`, as a feature's stop does. */
  removeAll(owner: string): void {
    for (const [event, list] of this.handlers)
      this.handlers.set(
        event,
        list.filter((one) => one.owner !== owner),
      );
  }

  /** Calls each handler in the order they subscribed; one that fails does not stop the others. */
  emit<K extends EventName>(event: K, payload: DaemonEvents[K]): void {
    for (const { owner, handler } of this.handlers.get(event) ?? []) {
      try {
        const result = (handler as Handler<K>)(payload);
        if (result instanceof Promise) result.catch((error: unknown) => this.onFailure({ event, owner, error }));
      } catch (error) {
        this.onFailure({ event, owner, error });
      }
    }
  }

  /** How many handlers listen to `event` (for health and tests). */
  listeners(event: EventName): number {
    return this.handlers.get(event)?.length ?? 0;
  }
}
