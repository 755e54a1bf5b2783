import type { Logger } from "../log/log.js";
import type { History, HistoryRecord } from "../store/index.js";
import { type Clock, systemClock } from "../time/index.js";

/** How often a store that keeps failing is mentioned again. */
const REMIND_MS = 10 * 60_000;

/**
 * The daemon's way into the history: a write that fails is logged (once, then every ten
 * minutes) and dropped, so live data keeps flowing to Home Assistant while the store is
 * locked, full or read-only. The gap backfill fetches what was dropped once it works again.
 */
export class HistorySink {
  private failingSince: number | undefined;
  private remindedAt = 0;
  private dropped = 0;

  constructor(
    private readonly history: History,
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
  ) {}

  /** True while the last write failed. */
  get failing(): boolean {
    return this.failingSince !== undefined;
  }

  write(records: readonly HistoryRecord[]): void {
    try {
      this.history.write(records);
      if (this.failingSince !== undefined) {
        this.logger.info(
          { dropped: this.dropped },
          "the history store is writing again; the gap backfill will fetch what was missed",
        );
        this.failingSince = undefined;
        this.dropped = 0;
      }
    } catch (error) {
      this.dropped += records.length;
      const at = this.clock.now();
      if (this.failingSince === undefined || at - this.remindedAt >= REMIND_MS) {
        this.logger.error(
          { err: (error as Error).message, dropped: this.dropped },
          "could not write to the history store; live data still goes to MQTT",
        );
        this.failingSince ??= at;
        this.remindedAt = at;
      }
    }
  }
}
