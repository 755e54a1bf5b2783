import type { Database, Statement } from "better-sqlite3";
import { HISTORY_KINDS, type HistoryKind } from "./history-types.js";

/** One series of history rows: a (kind, device) pair and the id its rows carry (a row of history_source). */
export interface Series {
  readonly id: number;
  readonly kind: HistoryKind;
  readonly device: string;
  readonly downsampledBefore: number;
}

interface SeriesRow {
  id: number;
  kind: string;
  device: string;
  downsampled_before: number;
}

const KINDS: ReadonlySet<string> = new Set(HISTORY_KINDS);

export function isHistoryKind(kind: string): kind is HistoryKind {
  return KINDS.has(kind);
}

/** The small lookup table that turns (kind, device) into the integer every history row carries. */
export class HistorySeries {
  private readonly ids = new Map<string, number>();
  private readonly find: Statement<[string, string], { id: number }>;
  private readonly insert: Statement<[string, string], { id: number }>;
  private readonly list: Statement<[], SeriesRow>;
  private readonly listKind: Statement<[string], SeriesRow>;

  constructor(db: Database) {
    this.find = db.prepare("SELECT id FROM history_source WHERE kind = ? AND device = ?");
    this.insert = db.prepare("INSERT INTO history_source (kind, device) VALUES (?, ?) RETURNING id");
    const columns = "SELECT id, kind, device, downsampled_before FROM history_source";
    this.list = db.prepare(`${columns} ORDER BY device, kind`);
    this.listKind = db.prepare(`${columns} WHERE kind = ? ORDER BY device`);
  }

  /** The id, created when new; inside a write transaction. */
  idFor(kind: HistoryKind, device: string): number {
    const name = `${kind}\u0000${device}`;
    let id = this.ids.get(name);
    if (id === undefined) {
      id = (this.find.get(kind, device) ?? this.insert.get(kind, device))?.id;
      if (id === undefined) throw new Error("history_source gave no id");
      this.ids.set(name, id);
    }
    return id;
  }

  /** The id when the store has heard of the pair, without creating it. */
  existing(kind: HistoryKind, device: string): number | undefined {
    return this.ids.get(`${kind}\u0000${device}`) ?? this.find.get(kind, device)?.id;
  }

  all(kind?: HistoryKind): Series[] {
    const rows = kind === undefined ? this.list.all() : this.listKind.all(kind);
    return rows.map((row) => {
      if (!isHistoryKind(row.kind)) throw new Error(`history_source ${row.id} has an unknown kind "${row.kind}"`);
      return { id: row.id, kind: row.kind, device: row.device, downsampledBefore: row.downsampled_before };
    });
  }

  /** After a rolled-back write: series inserted by it are gone again. */
  forget(): void {
    this.ids.clear();
  }
}
