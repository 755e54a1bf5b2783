import type { Subscription } from "rxjs";
import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { Logger } from "../log/log.js";
import type { DeviceSource, Inventory, PollConfig } from "../sources/index.js";
import type { Clock } from "../time/index.js";
import { startTelemetry, type Telemetry } from "./telemetry.js";

export interface TelemetryFeatureOptions {
  readonly source: DeviceSource;
  readonly poll: PollConfig;
  readonly bus: EventBus;
  readonly inventory: () => Inventory;
  readonly logger: Logger;
  /** The system clock by default. */
  readonly clock: Clock;
}

export interface TelemetryFeature extends Feature {
  /** Polls every resource of the device (deviceId()) at once, e.g. after a command. */
  refresh(deviceId: string): void;
}

/**
 * The polls, as the bus's one teller of what was fetched (each answer once), availability and
 * poll times. It is the only subscriber of the polls' stream, so no consumer can miss the first answers: consumers
 * subscribe to the bus before this feature starts. Devices that come or go restart the polls.
 */
export function telemetryFeature(options: TelemetryFeatureOptions): TelemetryFeature {
  const { bus, logger } = options;
  const clock = options.clock;
  const name = "telemetry";
  let telemetry: Telemetry | undefined;
  let subscription: Subscription | undefined;

  const run = (inventory: Inventory): Telemetry => {
    const next = startTelemetry({
      source: options.source,
      inventory,
      poll: options.poll,
      logger,
      clock,
      onPolled: (polled) => bus.emit("polled", polled),
    });
    subscription = next.events$.subscribe((event) =>
      event.kind === "availability" ? bus.emit("availability", event) : bus.emit("fetched", event),
    );
    return next;
  };
  const halt = (): void => {
    subscription?.unsubscribe();
    telemetry?.stop();
  };

  return {
    name,
    start() {
      const first = run(options.inventory());
      telemetry = first;
      void first.firstRound.then(() => bus.emit("firstRound", { at: clock.now() }));
      bus.on("inventoryChanged", name, ({ inventory, devicesChanged }) => {
        if (!devicesChanged) return;
        halt();
        telemetry = run(inventory);
      });
    },
    refresh: (deviceId) => telemetry?.refresh(deviceId),
    halt,
    stop() {
      bus.removeAll(name);
      halt();
    },
  };
}
