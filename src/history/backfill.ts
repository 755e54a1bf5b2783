import type { Logger } from "../log/log.js";
import { type ArchiveKind, type ArchiveReport, planArchive, runTasks, targetsOf } from "../sources/cloud/index.js";
import type { HistorySource } from "../sources/index.js";
import type { History } from "../store/index.js";
import type { Inventory } from "../telemetry/index.js";
import { addDays, type Clock, dayOf, later } from "../time/index.js";

export interface BackfillOptions {
  /** Where the days missed are read from. */
  readonly source: HistorySource;
  readonly history: History;
  /** The daemon's current inventory, read at every pass so new devices are included. */
  readonly inventory: () => Inventory | undefined;
  /** How many local days back, today included; 3 by default. */
  readonly days?: number;
  readonly kinds?: readonly ArchiveKind[];
  /** The system clock by default. */
  readonly clock: Clock;
  /** Requests in flight at once; 2 by default. */
  readonly concurrency?: number;
  readonly logger?: Logger;
  /** Called after each pass, e.g. for tests or a status entity. */
  readonly onPass?: (report: ArchiveReport) => void;
  /**
   * After a pass the store could not take (a full disk, a read-only file), the backfill waits this
   * long before trying again, doubling up to STORE_RETRY_MAX_MS: 1 minute by default.
   */
  readonly storeRetryMs?: number;
}

export interface Backfill {
  /** Runs a pass soon: now if idle, else once the pass under way ends. Call it when a device is back. */
  trigger(): void;
  /** Resolves when no pass runs or is due. */
  idle(): Promise<void>;
  /** Aborts the pass under way (its committed days stay) and ends the backfill. */
  stop(): Promise<void>;
}

export const DEFAULT_BACKFILL_DAYS = 3;
const STORE_RETRY_MS = 60_000;
const STORE_RETRY_MAX_MS = 30 * 60_000;

/**
 * The daemon's gap filler: the last few days of every device, skipping days the store already
 * has complete, at background priority so live polls and commands always go first. One pass
 * at start, then one per trigger(); triggers during a pass fold into one more pass. A store that
 * cannot take the history (full disk, read-only) pauses it, with retries further and further apart.
 */
export function startBackfill(options: BackfillOptions): Backfill {
  const clock = options.clock;
  const controller = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;
  // While the store cannot take what is read, nothing is fetched until the retry is due.
  let paused: (() => void) | undefined;
  let retryMs = options.storeRetryMs ?? STORE_RETRY_MS;

  const pass = async (): Promise<void> => {
    const inventory = options.inventory();
    if (!inventory) return;
    const targets = targetsOf(inventory);
    const at = clock.now();
    const from = addDays(dayOf(at, targets.timezone), 1 - Math.max(1, options.days ?? DEFAULT_BACKFILL_DAYS));
    const tasks = planArchive(targets, options.history, {
      now: at,
      from,
      ...(options.kinds ? { kinds: options.kinds } : {}),
    });
    const report = await runTasks(tasks, {
      source: options.source,
      history: options.history,
      timezone: targets.timezone,
      clock,
      signal: controller.signal,
      concurrency: options.concurrency ?? 2,
      ...(options.logger ? { logger: options.logger } : {}),
    });
    if (report.storeFailure) pause(report.storeFailure.message);
    else retryMs = options.storeRetryMs ?? STORE_RETRY_MS;
    const log = report.failures.length > 0 ? options.logger?.warn : options.logger?.info;
    log?.call(
      options.logger,
      { from, requests: report.requests, failures: report.failures.length, missing: report.missing.length },
      "history backfill pass done",
    );
    options.onPass?.(report);
  };

  const pause = (why: string): void => {
    again = false;
    options.logger?.warn(
      { err: why, retryInMs: retryMs },
      "the store cannot take the history: the backfill is paused, and tries again later",
    );
    paused = later(clock, retryMs, () => {
      paused = undefined;
      trigger();
    });
    retryMs = Math.min(retryMs * 2, STORE_RETRY_MAX_MS);
  };

  const loop = async (): Promise<void> => {
    do {
      again = false;
      try {
        await pass();
      } catch (error) {
        if (controller.signal.aborted) return;
        options.logger?.warn(
          { err: error instanceof Error ? error.message : String(error) },
          "history backfill failed",
        );
      }
    } while (again && !controller.signal.aborted);
  };

  const trigger = (): void => {
    if (controller.signal.aborted || paused) return;
    if (running) {
      again = true;
      return;
    }
    running = loop().finally(() => {
      running = undefined;
    });
  };

  trigger();
  return {
    trigger,
    idle: async () => {
      while (running) await running;
    },
    stop: async () => {
      controller.abort();
      paused?.();
      await running;
    },
  };
}
