import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { Logger } from "../log/log.js";
import { type DeviceSource, deviceId, devicesOf, type Inventory } from "../sources/index.js";
import { type Clock, every } from "../time/index.js";

export interface InventoryFeature extends Feature {
  /** The inventory as last read. */
  readonly current: Inventory;
}

/**
 * The account's device lists, read again every `everyMs`: new and removed devices, and battery
 * module data. Each read is told on the bus, with whether devices came or went.
 */
export function inventoryFeature(options: {
  readonly source: DeviceSource;
  readonly bus: EventBus;
  readonly first: Inventory;
  readonly everyMs: number;
  readonly logger: Logger;
  readonly clock: Clock;
}): InventoryFeature {
  const { source, bus, logger } = options;
  let current = options.first;
  let cancel: (() => void) | undefined;
  let unsubscribe: (() => void) | undefined;
  const refresh = new AbortController();
  // One refresh at a time: a slow cloud, or a clock that jumps (a resumed laptop, the demo's
  // clock moved on), must not pile refreshes up behind each other.
  let reading = false;

  const read = async (): Promise<void> => {
    if (reading) return;
    reading = true;
    logger.debug("refreshing the device lists");
    try {
      const next = await source.discover({ previous: current, logger, signal: refresh.signal });
      const devicesChanged = deviceSet(next) !== deviceSet(current);
      current = next;
      bus.emit("inventoryChanged", { inventory: next, devicesChanged });
    } catch (error) {
      if (!refresh.signal.aborted) logger.warn({ err: (error as Error).message }, "could not refresh the device lists");
    } finally {
      reading = false;
    }
  };
  const halt = (): void => {
    cancel?.();
    unsubscribe?.();
    refresh.abort();
  };

  return {
    name: "inventory",
    get current() {
      return current;
    },
    start() {
      cancel = every(options.clock, options.everyMs, () => void read());
      unsubscribe = source.onDevicesChanged?.(() => void read());
    },
    halt,
    stop: halt,
  };
}

function deviceSet(inventory: Inventory): string {
  return devicesOf(inventory).map(deviceId).sort().join(",");
}
