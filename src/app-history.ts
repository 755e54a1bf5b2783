import { type Backfill, startBackfill } from "./archive/index.js";
import type { CloudClient } from "./cloud/index.js";
import type { Config } from "./config/index.js";
import type { Logger } from "./log.js";
import { type HistoryRecord, HistorySink, type Store } from "./store/index.js";
import { batteryRecords } from "./telemetry/history-records.js";
import type { Inventory } from "./telemetry/index.js";

/** Energy flows are not polled live: the backfill reads today's every hour. */
const FLOWS_EVERY_MS = 60 * 60_000;
const RETENTION_EVERY_MS = 6 * 60 * 60_000;

export interface DaemonHistory {
  /** Telemetry's rows, written as they come. */
  record(records: readonly HistoryRecord[]): void;
  /** The device lists were read again: their battery modules' figures go into the history. */
  inventoryRead(inventory: Inventory): void;
  /** A device came back after an outage: fetch what was missed. */
  deviceBack(): void;
  /** The store refuses writes (live data still goes to MQTT). */
  readonly failing: boolean;
  stop(): Promise<void>;
}

/**
 * The daemon's history: telemetry's own answers written as they come, the last days' gaps
 * filled at background priority (at start, after an outage, and today's energy flows hourly),
 * and the retention rules applied now and then. A failing store never stops live data.
 */
export function startDaemonHistory(
  config: Config,
  client: CloudClient,
  store: Store,
  inventory: () => Inventory,
  logger: Logger,
): DaemonHistory {
  const sink = new HistorySink(store.history, logger);
  const gaps: Backfill = startBackfill({ client, history: store.history, inventory, logger });
  const flows: Backfill = startBackfill({
    client,
    history: store.history,
    inventory,
    logger,
    days: 1,
    kinds: ["flow.half_hour", "flow.day"],
  });
  const applyRetention = (): void => {
    if (Object.keys(config.store.retention).length === 0) return;
    try {
      const result = store.history.applyRetention(config.store.retention, Date.now());
      logger.debug({ result }, "history retention applied");
    } catch (error) {
      logger.warn({ err: (error as Error).message }, "could not apply the history retention rules");
    }
  };
  const lastModules = new Map<string, string>();
  const timers = [setInterval(() => flows.trigger(), FLOWS_EVERY_MS), setInterval(applyRetention, RETENTION_EVERY_MS)];
  applyRetention();

  return {
    record: (records) => sink.write(records),
    inventoryRead(next) {
      const at = Date.now();
      // A module's figures (capacity, cycles) change slowly: a row only when they did.
      const changed = next.inverters
        .flatMap((inverter) => batteryRecords(inverter.serial, inverter.batteries, at))
        .filter((row) => {
          const json = JSON.stringify(row.data);
          if (lastModules.get(row.key) === json) return false;
          lastModules.set(row.key, json);
          return true;
        });
      if (changed.length > 0) sink.write(changed);
    },
    deviceBack: () => gaps.trigger(),
    get failing() {
      return sink.failing;
    },
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.all([gaps.stop(), flows.stop()]);
    },
  };
}
