import { type HistorySummaryRow, hasCadence } from "../store/index.js";
import { openConfiguredStore } from "./store-access.js";

export interface HistoryOptions {
  readonly config?: string;
}

const HEADER = ["device", "kind", "first (UTC)", "last (UTC)", "count", "gaps"];

/**
 * `energy2mqtt history`: what the store holds, per device and kind: first and last record,
 * count, and gaps (holes longer than twice the kind's cadence, for kinds that have one).
 * 0 ok, 1 the store cannot be read, 2 bad configuration.
 */
export async function runHistoryCommand(
  options: HistoryOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const store = openConfiguredStore(options.config, err);
  if (typeof store === "number") return store;
  try {
    const rows = store.history.summary();
    if (rows.length === 0) {
      out.write(`${store.path} holds no history yet\n`);
      return 0;
    }
    out.write(`${store.path}\n${table([HEADER, ...rows.map(cells)])}`);
    return 0;
  } finally {
    store.close();
  }
}

function cells(row: HistorySummaryRow): string[] {
  return [row.device, row.kind, time(row.first), time(row.last), String(row.count), gaps(row)];
}

/** Kinds without a fixed cadence cannot have gaps measured. */
function gaps(row: HistorySummaryRow): string {
  return hasCadence(row.kind) ? String(row.gaps) : "-";
}

function time(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

function table(rows: readonly string[][]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)));
  const numeric = new Set([4, 5]);
  return rows
    .map((row) =>
      row
        .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
        .join("  ")
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join("");
}
