import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { Logger } from "../log/log.js";
import { type BridgeStatus, type BridgeStatusOptions, startBridgeStatus } from "./mqtt-bridge.js";
import { watchStaleness } from "./stale-watch.js";

/**
 * The bridge's own topics (info, health, logging) on the bus: every cloud request, reading and
 * availability verdict counts towards health; devices that come or go change the info. Devices
 * whose values grow old are said stale, and unavailable past `homeassistant.stale_after`.
 */
export function healthFeature(options: {
  readonly bus: EventBus;
  readonly status: BridgeStatusOptions;
  /** Registers the status to publish again after every (re)connection of MQTT. */
  readonly republishOn: (status: BridgeStatus) => void;
  /** Where a device going stale is said. */
  readonly logger?: Logger;
}): Feature {
  const { bus } = options;
  const name = "health";
  let status: BridgeStatus | undefined;
  let stopWatch: (() => void) | undefined;
  return {
    name,
    start() {
      const started = startBridgeStatus(options.status);
      status = started;
      bus.on("cloudRequest", name, (request) => started.cloudRequest(request.status));
      bus.on("availability", name, (reading) => started.reading(reading));
      bus.on("inventoryChanged", name, ({ devicesChanged }) => {
        if (devicesChanged) started.inventoryChanged();
      });
      stopWatch = watchStaleness({
        bus,
        owner: name,
        freshness: options.status.freshness,
        clock: options.status.clock,
        budget: options.status.budget,
        ...(options.logger ? { logger: options.logger } : {}),
      });
      options.republishOn(started);
    },
    stop() {
      bus.removeAll(name);
      stopWatch?.();
      status?.stop();
    },
  };
}
