import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { Config } from "../config/index.js";
import type { Logger } from "../log/log.js";
import type { HistorySource } from "../sources/index.js";
import type { Store } from "../store/index.js";
import type { Inventory } from "../telemetry/index.js";
import { type Clock, every } from "../time/index.js";
import { type Backfill, startBackfill } from "./backfill.js";
import { fetchedRecords } from "./fetched-records.js";
import { batteryRecords } from "./records.js";
import { HistorySink } from "./sink.js";

/** Energy flows are not polled live: the backfill reads today's every hour. */
const FLOWS_EVERY_MS = 60 * 60_000;
const RETENTION_EVERY_MS = 6 * 60 * 60_000;

export interface HistoryFeatureOptions {
  readonly config: Config;
  /** The long history for the gap backfill; without one (a path that has none) only what is fetched live is kept. */
  readonly source: HistorySource | undefined;
  readonly store: Store;
  readonly bus: EventBus;
  /** The daemon's current inventory. */
  readonly inventory: () => Inventory;
  readonly logger: Logger;
  /** The system clock by default. */
  readonly clock: Clock;
}

export interface HistoryFeature extends Feature {
  /** The store refuses writes (live data still goes to MQTT). */
  readonly failing: boolean;
}

/**
 * The daemon's history: what telemetry fetched written as it comes, the last days' gaps filled at
 * background priority (at start, after an outage, and today's energy flows hourly), battery
 * modules' figures when the device lists are read, and the retention rules applied now and then
 * (with the published prices' own keeping).
 * A failing store never stops live data.
 */
export function historyFeature(options: HistoryFeatureOptions): HistoryFeature {
  const { config, source, store, bus, inventory, logger } = options;
  const clock = options.clock;
  const now = (): number => clock.now();
  const name = "history";
  const sink = new HistorySink(store.history, logger, clock);
  const lastModules = new Map<string, string>();
  const down = new Set<string>();
  const timers: (() => void)[] = [];
  let backfills: { gaps: Backfill; flows: Backfill } | undefined;

  const applyRetention = (): void => {
    try {
      const deleted = store.publishedPrices.applyRetention(now());
      if (deleted > 0) logger.debug({ deleted }, "published prices past their keeping dropped");
    } catch (error) {
      logger.warn({ err: (error as Error).message }, "could not drop the old published prices");
    }
    if (Object.keys(config.store.retention).length === 0) return;
    try {
      const result = store.history.applyRetention(config.store.retention, now());
      logger.debug({ result }, "history retention applied");
    } catch (error) {
      logger.warn({ err: (error as Error).message }, "could not apply the history retention rules");
    }
  };

  // A module's figures (capacity, cycles) change slowly: a row only when they did.
  const modulesRead = (next: Inventory): void => {
    const at = now();
    const changed = next.inverters
      .flatMap((inverter) => batteryRecords(inverter.serial, inverter.batteries, at))
      .filter((row) => {
        const json = JSON.stringify(row.data);
        if (lastModules.get(row.key) === json) return false;
        lastModules.set(row.key, json);
        return true;
      });
    if (changed.length > 0) sink.write(changed);
  };

  const stopBackfills = async (): Promise<void> => {
    for (const cancel of timers.splice(0)) cancel();
    if (backfills) await Promise.all([backfills.gaps.stop(), backfills.flows.stop()]);
  };

  return {
    name,
    get failing() {
      return sink.failing;
    },
    start() {
      if (source) {
        const common = { source, history: store.history, inventory, logger, clock };
        const gaps = startBackfill(common);
        const flows = startBackfill({ ...common, days: 1, kinds: ["flow.half_hour", "flow.day"] });
        backfills = { gaps, flows };
        timers.push(every(clock, FLOWS_EVERY_MS, () => flows.trigger()));
      }
      timers.push(every(clock, RETENTION_EVERY_MS, applyRetention));
      applyRetention();
      modulesRead(inventory());
      bus.on("fetched", name, (fetched) => {
        const rows = fetchedRecords(fetched);
        if (rows.length > 0) sink.write(rows);
      });
      // A device back after an outage: fetch what was missed.
      bus.on("availability", name, (reading) => {
        if (!reading.available) down.add(reading.device);
        else if (down.delete(reading.device)) backfills?.gaps.trigger();
      });
      bus.on("inventoryChanged", name, ({ inventory: next }) => modulesRead(next));
    },
    // The backfill is background work: aborted the moment a stop begins, awaited in turn.
    halt: () => void stopBackfills(),
    async stop() {
      bus.removeAll(name);
      await stopBackfills();
    },
  };
}
