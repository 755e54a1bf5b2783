import type { EventBus } from "../bus/event-bus.js";
import type { Config } from "../config/index.js";
import { Freshness } from "../health/index.js";
import type { Logger } from "../log/log.js";
import type { LoadedRules } from "../rules/index.js";
import type { DeviceSource } from "../sources/index.js";
import { type Inventory, type InventoryFeature, inventoryFeature } from "../telemetry/index.js";
import type { Clock } from "../time/index.js";
import { checkDaemonRulesOnDevices } from "./daemon-rules.js";

/** The devices as first discovered, the feature that reads them again, and how fresh each is. */
export interface Devices {
  readonly first: Inventory;
  readonly devices: InventoryFeature;
  readonly inventory: () => Inventory;
  readonly freshness: Freshness;
}

/**
 * Discovers the devices, checks the rules file against them (a value a device refuses stops
 * start-up), and keeps the device lists current.
 */
export async function buildInventory(options: {
  readonly config: Config;
  readonly source: DeviceSource;
  readonly rulesFile: LoadedRules | undefined;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly clock: Clock;
}): Promise<Devices> {
  const { config, source, bus, logger, clock } = options;
  const first = await source.discover({ logger });
  await checkDaemonRulesOnDevices(options.rulesFile, first);
  const devices = inventoryFeature({
    source,
    bus,
    first,
    everyMs: config.poll.inventory,
    logger,
    clock,
  });
  const inventory = (): Inventory => devices.current;
  const freshness = new Freshness({
    poll: config.poll,
    staleAfterMs: config.homeassistant.stale_after,
    inventory,
    startedAt: clock.now(),
  });
  return { first, devices, inventory, freshness };
}
