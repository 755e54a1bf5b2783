/**
 * The history's public shape: what telemetry and the archive write, and what export, the
 * `history` command and the rules read. The SQLite side lives in history.ts.
 */

import { DOWNSAMPLED_KINDS, HISTORY_KINDS, type HistoryKind } from "../vocabulary/history-kinds.js";

export { DOWNSAMPLED_KINDS, HISTORY_KINDS, type HistoryKind };

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** One row: unique by (kind, device, key, at). Writing it again replaces data only when it differs. */
export interface HistoryRecord {
  readonly kind: HistoryKind;
  /** Inverter or EMS serial, or charger / smart device uuid, as the cloud spells it. */
  readonly device: string;
  /** Epoch ms of the record's own time (the point's time, the session's start, the flow's start). */
  readonly at: number;
  readonly key: string;
  readonly data: JsonObject;
}

export interface WriteResult {
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
}

export interface HistoryQuery {
  readonly kind: HistoryKind;
  readonly device?: string;
  /** Epoch ms, inclusive. */
  readonly from?: number;
  /** Epoch ms, exclusive. */
  readonly to?: number;
}

export interface HistorySummaryRow {
  readonly kind: HistoryKind;
  readonly device: string;
  readonly first: number;
  readonly last: number;
  readonly count: number;
  /** Holes longer than twice the kind's cadence between first and last (none for kinds without a cadence). */
  readonly gaps: number;
}

/**
 * Which (kind, device, local day) the cloud has been read for. `complete` means the day had
 * ended when it was read, so it never needs reading again; archive resume and gap backfill
 * both work from this.
 */
export interface FetchedDay {
  readonly kind: HistoryKind;
  readonly device: string;
  /** YYYY-MM-DD in the device's time zone. */
  readonly day: string;
  readonly complete: boolean;
}

export interface History {
  /** Upserts in one transaction; idempotent. */
  write(records: readonly HistoryRecord[]): WriteResult;
  /** Records in time order. */
  query(query: HistoryQuery): IterableIterator<HistoryRecord>;
  summary(): HistorySummaryRow[];
  /** Records the days as read, in one transaction (with their records, when given). */
  markFetched(days: readonly FetchedDay[], records?: readonly HistoryRecord[]): WriteResult;
  /** The days already read completely for this kind and device. */
  completeDays(kind: HistoryKind, device: string): Set<string>;
}
